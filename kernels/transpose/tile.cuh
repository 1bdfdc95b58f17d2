// transpose: the tile every transpose variant works on, 32 x 32 floats.
constexpr int tile_dim = 32;
// shared_rows: a block of tile_dim x block_rows threads; each thread moves tile_dim / block_rows
// elements of the tile.
constexpr int block_rows = 4;
static_assert(tile_dim % block_rows == 0, "the block's rows must step evenly through the tile");
