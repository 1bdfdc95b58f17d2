// The parsers of the compiler's text (sim/compiled.h) on excerpts recorded from the real tools
// (nvcc 13.0, nvdisasm and cuobjdump 13.5, for the architectures named at each excerpt). What each
// test expects is read off the excerpt by eye; tests/test_compiled_live.cpp runs the tools themselves.
#include <gtest/gtest.h>

#include "sim/compiled.h"

using namespace ws::sim;

namespace {

// nvdisasm -c -gi of reduce4 (tests/reductions.cuh as it was when recorded; its reduce4 is now
// tests/fidelity/reductions.cu's reduce4_volatile) for sm_90, cut: the loop of lines 92-94 and
// the start of the inlined warpReduce (line 75, inlined at line 96).
const char* kReduce4Sm90 = R"txt(
//--------------------- .text._Z7reduce4PKfPfj    --------------------------
	.section	.text._Z7reduce4PKfPfj,"ax",@progbits
	.align	128
        .global         _Z7reduce4PKfPfj
        .type           _Z7reduce4PKfPfj,@function
        .size           _Z7reduce4PKfPfj,(.L_x_92 - _Z7reduce4PKfPfj)
        .other          _Z7reduce4PKfPfj,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z7reduce4PKfPfj:
.text._Z7reduce4PKfPfj:
	//## File "/src/tests/reductions.cuh", line 84
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/src/tests/reductions.cuh", line 92
        /*01d0*/              @!P2 BRA `(.L_x_32) ;
.L_x_33:
        /*01e0*/                   SHF.R.U32.HI R8, RZ, 0x1, R6 ;
	//## File "/src/tests/reductions.cuh", line 93
        /*01f0*/                   ISETP.GE.U32.AND P2, PT, R9, R8, PT ;
        /*0200*/              @!P2 LEA R2, R8, R7, 0x2 ;
        /*0210*/              @!P2 LDS R3, [R7] ;
        /*0220*/              @!P2 LDS R2, [R2] ;
        /*0230*/              @!P2 FADD R4, R3, R2 ;
        /*0240*/              @!P2 STS [R7], R4 ;
	//## File "/src/tests/reductions.cuh", line 94
        /*0250*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
	//## File "/src/tests/reductions.cuh", line 92
        /*0260*/                   ISETP.GT.U32.AND P2, PT, R6, 0x83, PT ;
        /*0270*/                   MOV R6, R8 ;
        /*0280*/               @P2 BRA `(.L_x_33) ;
.L_x_32:
        /*0290*/                   BSSY B0, `(.L_x_34) ;
	//## File "/src/tests/reductions.cuh", line 96
        /*02a0*/               @P0 BRA `(.L_x_35) ;
	//## File "/src/tests/reductions.cuh", line 75 inlined at "/src/tests/reductions.cuh", line 96
	//## File "/src/tests/reductions.cuh", line 96
        /*02b0*/                   LDS R2, [R7] ;
        /*02c0*/                   LDS R3, [R7+0x80] ;
        /*02d0*/                   FADD R2, R2, R3 ;
        /*02e0*/                   STS [R7], R2 ;
.L_x_35:
        /*0430*/                   BSYNC B0 ;
.L_x_34:
        /*0440*/               @P1 EXIT ;
.L_x_36:
        /*0450*/                   BRA `(.L_x_36);
)txt";

}  // namespace

TEST(Nvdisasm, ReadsAFunctionItsInstructionsAndWhetherItIsAKernel) {
  const auto ks = ParseNvdisasm(kReduce4Sm90);
  ASSERT_EQ(ks.size(), 1u);
  const auto& k = ks[0];
  EXPECT_EQ(k.name, "_Z7reduce4PKfPfj");
  EXPECT_EQ(k.demangled, "reduce4(float const*, float*, unsigned int)");
  EXPECT_TRUE(k.is_entry);
  ASSERT_EQ(k.instructions.size(), 22u);  // 22 lines of the excerpt start with /*offset*/
  EXPECT_EQ(k.instructions[5].offset, 0x210u);
  EXPECT_EQ(k.instructions[5].text, "@!P2 LDS R3, [R7]");
  EXPECT_EQ(k.instructions[5].opcode, "LDS");
  EXPECT_EQ(k.instructions[5].predicate, "@!P2");
  EXPECT_EQ(k.instructions[5].space, MemSpace::Shared);
  EXPECT_EQ(k.instructions[5].op, Op::Load);
  EXPECT_EQ(k.instructions[5].width, 4);
  EXPECT_EQ(k.instructions[8].op, Op::Store);  // STS at 0x240
  EXPECT_EQ(k.instructions[9].space, MemSpace::None);  // BAR.SYNC
}

TEST(Nvdisasm, ALineHoldsUntilTheNextLineComment) {
  const auto k = ParseNvdisasm(kReduce4Sm90)[0];
  // 0x0200 follows the comment "line 93" one instruction earlier.
  ASSERT_EQ(k.instructions[3].where.size(), 1u);
  EXPECT_EQ(k.instructions[3].where[0].line, 93u);
  EXPECT_EQ(k.instructions[3].where[0].file, "/src/tests/reductions.cuh");
  // The branch back at 0x280 sits under "line 92".
  EXPECT_EQ(k.instructions[12].where[0].line, 92u);
}

TEST(Nvdisasm, AnInlinedLineKeepsWhereItWasInlined) {
  const auto k = ParseNvdisasm(kReduce4Sm90)[0];
  const auto& lds = k.instructions[15];  // 0x02b0, under "line 75 inlined at ... line 96"
  ASSERT_EQ(lds.offset, 0x2b0u);
  ASSERT_EQ(lds.where.size(), 2u);  // the repeated "line 96" comment is the same frame, not a third
  EXPECT_EQ(lds.where[0].line, 75u);
  EXPECT_EQ(lds.where[1].line, 96u);
}

TEST(Nvdisasm, ABranchBackClosesALoopAndABranchToItselfDoesNot) {
  const auto k = ParseNvdisasm(kReduce4Sm90)[0];
  // .L_x_33 is instruction 2 (0x1e0); the branch back to it is instruction 12 (0x280). The
  // trap at 0x450 branches to itself: no loop.
  ASSERT_EQ(k.loops.size(), 1u);
  EXPECT_EQ(k.loops[0].first, 2u);
  EXPECT_EQ(k.loops[0].last, 12u);
  EXPECT_EQ(k.instructions[12].branch_target, 2);
  EXPECT_EQ(k.instructions[5].loop, 0);   // LDS of line 93, inside
  EXPECT_EQ(k.instructions[15].loop, -1);  // LDS of line 75, after it
  EXPECT_EQ(k.instructions[1].loop, -1);   // the forward branch before it
}

// nvdisasm -c of an empty kernel (__global__ void empty_kernel() {}) for sm_90, nvcc 13: three
// instructions, then NOPs that pad the function to 256 bytes.
const char* kEmptySm90 = R"txt(
//--------------------- .text._Z12empty_kernelv   --------------------------
	.section	.text._Z12empty_kernelv,"ax",@progbits
	.align	128
        .global         _Z12empty_kernelv
        .type           _Z12empty_kernelv,@function
        .size           _Z12empty_kernelv,(.L_x_2 - _Z12empty_kernelv)
        .other          _Z12empty_kernelv,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z12empty_kernelv:
.text._Z12empty_kernelv:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
.L_x_1:
        /*0010*/                   EXIT ;
.L_x_0:
        /*0020*/                   BRA `(.L_x_0);
        /*0030*/                   NOP;
        /*0040*/                   NOP;
        /*00e0*/                   NOP;
        /*00f0*/                   NOP;
.L_x_2:
)txt";

TEST(Nvdisasm, CodeBytesEndWhereThePaddingNopsBegin) {
  // LDC, EXIT and BRA at 0x00, 0x10, 0x20: the code is 0x30 = 48 bytes, the empty kernel's
  // (kEmptyKernelCodeBytes); the reduce4 excerpt ends with BRA at 0x450: 0x460 bytes. A PTX
  // listing has no byte offsets: 0.
  const auto empty = ParseNvdisasm(kEmptySm90);
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(CodeBytes(empty[0], ListingKind::Sass), 48u);
  EXPECT_EQ(CodeBytes(empty[0], ListingKind::Ptx), 0u);
  const auto r4 = ParseNvdisasm(kReduce4Sm90);
  ASSERT_EQ(r4.size(), 1u);
  EXPECT_EQ(CodeBytes(r4[0], ListingKind::Sass), 0x460u);
}

TEST(SassOpcodes, WidthSpaceAndOpComeFromTheOpcodeAndItsModifiers) {
  struct Case { const char* opcode; MemSpace space; Op op; int width; };
  const Case cases[] = {
      {"LDS.128", MemSpace::Shared, Op::Load, 16},
      {"LDS.U.128", MemSpace::Shared, Op::Load, 16},  // sm_75 spells a uniform address .U
      {"LDS.U", MemSpace::Shared, Op::Load, 4},
      {"LDG.E.SYS", MemSpace::Global, Op::Load, 4},
      {"LDG.E.64.CONSTANT", MemSpace::Global, Op::Load, 8},
      {"STG.E.U8", MemSpace::Global, Op::Store, 1},
      {"STS.U16", MemSpace::Shared, Op::Store, 2},
      {"STL.128", MemSpace::Local, Op::Store, 16},
      {"REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", MemSpace::Global, Op::Reduction, 4},
      {"RED.E.ADD.F64.RN.STRONG.GPU", MemSpace::Generic, Op::Reduction, 8},
      {"ATOMS.ADD", MemSpace::Shared, Op::Atomic, 4},
      {"ATOMG.E.CAS.64.STRONG.GPU", MemSpace::Global, Op::Atomic, 8},
      {"LD.E.128", MemSpace::Generic, Op::Load, 16},
  };
  for (const auto& c : cases) {
    MemSpace s;
    Op o;
    uint8_t w;
    ClassifySass(c.opcode, &s, &o, &w);
    EXPECT_EQ(s, c.space) << c.opcode;
    EXPECT_EQ(o, c.op) << c.opcode;
    EXPECT_EQ(w, c.width) << c.opcode;
  }
  for (const char* other : {"LDC.64", "ULDC", "BAR.SYNC.DEFER_BLOCKING", "LEA", "SHFL.DOWN", "LDCU"}) {
    MemSpace s;
    Op o;
    uint8_t w;
    ClassifySass(other, &s, &o, &w);
    EXPECT_EQ(s, MemSpace::None) << other;
  }
}

TEST(SassOpcodes, AMemoryInstructionIsNamedByItsOpcodeAndAWidthThatIsNotFourBytes) {
  CompiledInstruction a;
  a.opcode = "LDS.U.128";
  ClassifySass(a.opcode, &a.space, &a.op, &a.width);
  EXPECT_EQ(a.MemoryName(), "LDS.128");
  CompiledInstruction b;
  b.opcode = "ld.shared.f32";
  ClassifyPtx(b.opcode, &b.space, &b.op, &b.width);
  EXPECT_EQ(b.MemoryName(), "LD");  // PTX's ld.shared: the space is the instruction's, the name its head
}

// cuobjdump -sass of a grid-stride loop for sm_90 (no line table; branches by offset).
TEST(Cuobjdump, ReadsFunctionsAndBranchesByOffset) {
  const char* text = R"txt(
	code for sm_90
		Function : _Z9divergentPii
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                       /* 0x00000a00ff017b82 */
                                                                                /* 0x000fe20000000800 */
        /*0010*/                   LDG.E R8, desc[UR4][R4.64] ;                 /* 0x0000000404087981 */
                                                                                /* 0x000ea2000c1e1900 */
        /*0020*/                   STG.E desc[UR4][R4.64], R9 ;                 /* 0x0000000904007986 */
                                                                                /* 0x0001e2000c101904 */
        /*0030*/              @!P0 BRA 0x10 ;                                   /* 0xfffffffc00c08947 */
                                                                                /* 0x000fea000383ffff */
        /*0040*/                   EXIT ;                                       /* 0x000000000000794d */
                                                                                /* 0x000fea0003800000 */
)txt";
  const auto ks = ParseCuobjdump(text);
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].instructions.size(), 5u);
  EXPECT_EQ(ks[0].instructions[1].opcode, "LDG.E");
  EXPECT_TRUE(ks[0].instructions[1].where.empty());
  EXPECT_EQ(ks[0].instructions[3].branch_target, 1);  // 0x10 is the LDG
  ASSERT_EQ(ks[0].loops.size(), 1u);
  EXPECT_EQ(ks[0].instructions[2].loop, 0);
  EXPECT_EQ(ks[0].instructions[4].loop, -1);
}

// nvcc -ptx -lineinfo of reduce4 for sm_90, cut, and a prototype before it.
TEST(Ptx, ReadsEntriesLocLinesAndLoopsAndSkipsPrototypes) {
  const char* text = R"txt(
.version 9.0
.target sm_90
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.visible .entry _Z7reduce4PKfPfj(
	.param .u64 _Z7reduce4PKfPfj_param_0,
	.param .u32 _Z7reduce4PKfPfj_param_2
)
{
	.reg .pred 	%p<8>;
	.loc	1 84 0
	ld.param.u64 	%rd3, [_Z7reduce4PKfPfj_param_0];
$L__BB4_5:
	.loc	1 93 5
	@%p4 bra 	$L__BB4_7;
	ld.shared.f32 	%f7, [%r6];
	st.shared.f32 	[%r6], %f9;
$L__BB4_7:
	.loc	1 92 3
	@%p5 bra 	$L__BB4_5;
	.loc	1 75 3, function_name $L__info_string0, inlined_at 1 96 3
	ld.volatile.shared.f32 	%f10, [%r6];
	ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd1];
	red.global.add.f32 	[%rd2], %f5;
	ret;
}
	.file	1 "/src/tests/reductions.cuh"
)txt";
  const auto ks = ParsePtx(text);
  ASSERT_EQ(ks.size(), 1u);
  const auto& k = ks[0];
  EXPECT_EQ(k.name, "_Z7reduce4PKfPfj");
  ASSERT_EQ(k.instructions.size(), 9u);  // ld.param, bra, ld, st, bra, ld, ld, red, ret
  EXPECT_EQ(k.instructions[0].space, MemSpace::None);  // a parameter is not memory the rules count
  EXPECT_EQ(k.instructions[2].space, MemSpace::Shared);
  EXPECT_EQ(k.instructions[2].where[0].line, 93u);
  EXPECT_EQ(k.instructions[1].predicate, "@%p4");
  EXPECT_EQ(k.instructions[4].branch_target, 1);  // $L__BB4_5 is the instruction after it
  ASSERT_EQ(k.loops.size(), 1u);
  EXPECT_EQ(k.instructions[3].loop, 0);
  EXPECT_EQ(k.instructions[5].loop, -1);
  ASSERT_EQ(k.instructions[5].where.size(), 2u);
  EXPECT_EQ(k.instructions[5].where[0].line, 75u);
  EXPECT_EQ(k.instructions[5].where[1].line, 96u);
  EXPECT_EQ(k.instructions[6].width, 16);  // v4 of f32
  EXPECT_EQ(k.instructions[7].op, Op::Reduction);
  EXPECT_EQ(k.instructions[7].space, MemSpace::Global);
}

// nvcc -Xptxas -v for sm_90 (ptxas 13.0), cut: two functions, the second refused.
TEST(Ptxas, ReadsEachFunctionsFiguresAndTheErrorsThatNameIt) {
  const char* text = R"txt(ptxas info    : 0 bytes gmem
ptxas error   : Entry function '_Z10big_sharedPf' uses too much shared data (0x11000 bytes, 0xc000 max)
ptxas warning : Value of threads per SM for entry _Z5heavyPfPKf is out of range. .minnctapersm will be ignored
ptxas info    : Compiling entry function '_Z5heavyPfPKf' for 'sm_90'
ptxas info    : Function properties for _Z5heavyPfPKf
    1056 bytes stack frame, 1040 bytes spill stores, 1796 bytes spill loads
ptxas info    : Used 64 registers, used 0 barriers, 1056 bytes cumulative stack size
ptxas info    : Compile time = 54.544 ms
ptxas info    : Compiling entry function '_Z7reduce6ILj128EEvPKfPfj' for 'sm_75'
ptxas info    : Function properties for _Z7reduce6ILj128EEvPKfPfj
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, 512 bytes smem, 356 bytes cmem[0]
)txt";
  const auto r = ParsePtxasOutput(text);
  ASSERT_EQ(r.usage.size(), 2u);
  EXPECT_EQ(r.usage[0].first, "_Z5heavyPfPKf");
  const auto& heavy = r.usage[0].second;
  EXPECT_EQ(heavy.registers, 64);
  EXPECT_EQ(heavy.barriers, 0);
  EXPECT_EQ(heavy.stack_bytes, 1056);
  EXPECT_EQ(heavy.spill_store_bytes, 1040);
  EXPECT_EQ(heavy.spill_load_bytes, 1796);
  EXPECT_EQ(heavy.shared_bytes, -1);  // not said
  const auto& r6 = r.usage[1].second;
  EXPECT_EQ(r6.registers, 14);
  EXPECT_EQ(r6.shared_bytes, 512);
  EXPECT_EQ(r6.constant_bytes, 356);
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0].severity, "error");
  EXPECT_EQ(r.messages[0].function, "_Z10big_sharedPf");
  EXPECT_EQ(r.messages[1].severity, "warning");
  EXPECT_EQ(r.messages[1].function, "_Z5heavyPfPKf");
}

TEST(Names, AKernelsShortNameDropsItsReturnTypeNamespacesAndParameters) {
  EXPECT_EQ(ShortName("void reduce6<128u>(float const*, float*, unsigned int)"), "reduce6<128u>");
  EXPECT_EQ(ShortName("ws::kernels::cudak::shortcut::kernel_v0(float*, float const*, int)"), "kernel_v0");
  EXPECT_EQ(ShortName("reduce4(float const*, float*, unsigned int)"), "reduce4");
  EXPECT_EQ(ShortName("void f<(anonymous namespace)::T>(int)"), "f<(anonymous namespace)::T>");
  EXPECT_EQ(Demangle("not_mangled"), "not_mangled");
}

// `cuobjdump -res-usage` of warpscope's sm_90 catalog cubin (cuobjdump 13.5), first two functions;
// the second's STACK changed from 0 to 16, so that a non-zero stack is read too.
TEST(CompiledText, ResUsageGivesEachFunctionsFigures) {
  const std::string text = R"(
Resource usage:
 Common:
  GLOBAL:0
 Function _ZN2ws7kernels5cudak9transpose21transpose_rows_kernelEPKfPfii:
  REG:32 STACK:0 SHARED:5248 LOCAL:0 CONSTANT[0]:552 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _ZN2ws7kernels5cudak9transpose24transpose_SM_nobc_kernelEPKfPfii:
  REG:14 STACK:16 SHARED:5248 LOCAL:0 CONSTANT[0]:552 TEXTURE:0 SURFACE:0 SAMPLER:0
)";
  const auto u = ws::sim::ParseResUsage(text);
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0].first, "_ZN2ws7kernels5cudak9transpose21transpose_rows_kernelEPKfPfii");
  EXPECT_EQ(u[0].second.registers, 32);
  EXPECT_EQ(u[0].second.shared_bytes, 5248);
  EXPECT_EQ(u[0].second.constant_bytes, 552);
  EXPECT_EQ(u[1].second.registers, 14);
  EXPECT_EQ(u[1].second.stack_bytes, 16);
  EXPECT_EQ(u[1].second.spill_store_bytes, -1);  // not in this text
}

// PTX and SASS listings resolve their branches with one function (ResolveBranches): a forward
// branch to a label that ends the function (no instruction after it) names no instruction, -1,
// in PTX as in SASS, where it used to name the index one past the last instruction.
TEST(CompiledText, APtxBranchToTheFunctionsEndNamesNoInstruction) {
  const std::string text = R"txt(
.visible .entry _Z4stopPf(
	.param .u64 _Z4stopPf_param_0
)
{
	.loc	1 3 0
	@%p1 bra 	$L__BB0_2;
	st.global.f32 	[%rd1], %f1;
	bra.uni 	$L__BB0_1;
$L__BB0_1:
	ret;
$L__BB0_2:
}
	.file	1 "/src/stop.cu"
)txt";
  const auto ks = ParsePtx(text);
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].instructions.size(), 4u);  // bra, st, bra, ret
  EXPECT_EQ(ks[0].instructions[0].branch_target, -1);
  EXPECT_EQ(ks[0].instructions[2].branch_target, 3);  // $L__BB0_1 is the ret
  EXPECT_EQ(ks[0].demangled, "stop(float*)");
}
