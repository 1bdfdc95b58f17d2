// alignment: the ray tracer's state from the seed, 32 bytes, and what every variant computes
// from it (a sum of all fields, so that no field is dead).
struct RayState {
  float3 pos;
  float3 dir;
  float minDist;
  int triangleID;
};
static_assert(sizeof(RayState) == 32, "RayState is eight 4-byte fields");
static_assert(alignof(RayState) == 4, "RayState has no alignment beyond its floats");

__host__ __device__ inline float RaySum(float3 pos, float3 dir, float minDist, int triangleID) {
  return pos.x + pos.y + pos.z + dir.x + dir.y + dir.z + minDist + float(triangleID);
}
