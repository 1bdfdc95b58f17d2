// transpose: the tile every transpose variant works on, 32 x 32 floats.
constexpr int tile_dim = 32;
