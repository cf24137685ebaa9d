/**
 * Dot products of one int8 query with many int8 rows, in WebAssembly SIMD (the in-process vector index's scan:
 * vector-scan.ts). Plain JavaScript does 100,000 x 512 multiply-adds in about 100 ms on this machine; the SIMD
 * kernel does them in a few ms (16 int8 lanes a step, widened to int16 and summed with i32x4.dot_i16x8_s).
 *
 * The module is small enough to write out here, opcode by opcode, so no toolchain or binary file is needed:
 *
 *   (func (export "dot") (param $q i32) (param $base i32) (param $rows i32) (param $count i32) (param $dim i32) (param $out i32)
 *     for i in 0..count: row = base + rows[i] * dim
 *                        out[i] = sum over j step 16 of dot(row[j..j+16], q[j..j+16])   ;; dim is a multiple of 16
 *   (memory (export "memory") 1)
 */

const I32 = 0x7f;
const V128 = 0x7b;

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, "utf8")];

// Instructions used by the kernel.
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const i32Const = (n: number) => [0x41, n]; // small non-negative constants only (one signed LEB byte: 0..63)
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const I32_ADD = [0x6a];
const I32_MUL = [0x6c];
const I32_SHL = [0x74];
const I32_GE_U = [0x4f];
const I32_LOAD = [0x28, 2, 0]; // align 4, offset 0
const I32_STORE = [0x36, 2, 0];
const V128_LOAD = simd(0x00, 0, 0); // align 1: rows are byte-aligned
const V128_ZERO = simd(0x0c, ...new Array<number>(16).fill(0));
const EXTEND_LOW_S = simd(0x87); // i16x8.extend_low_i8x16_s
const EXTEND_HIGH_S = simd(0x88); // i16x8.extend_high_i8x16_s
const DOT = simd(0xba); // i32x4.dot_i16x8_s
const ADD4 = simd(0xae); // i32x4.add
const lane = (l: number) => simd(0x1b, l); // i32x4.extract_lane
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const br = (depth: number) => [0x0c, depth];
const brIf = (depth: number) => [0x0d, depth];

// Parameters 0-5, then locals.
const [Q, BASE, ROWS, COUNT, DIM, OUT, I, ROW, J, ACC, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

const body: number[] = [
  ...BLOCK,
  ...LOOP,
  ...get(I),
  ...get(COUNT),
  ...I32_GE_U,
  ...brIf(1),
  // row = base + rows[i] * dim
  ...get(BASE),
  ...get(ROWS),
  ...get(I),
  ...i32Const(2),
  ...I32_SHL,
  ...I32_ADD,
  ...I32_LOAD,
  ...get(DIM),
  ...I32_MUL,
  ...I32_ADD,
  ...set(ROW),
  ...V128_ZERO,
  ...set(ACC),
  ...i32Const(0),
  ...set(J),
  ...BLOCK,
  ...LOOP,
  ...get(J),
  ...get(DIM),
  ...I32_GE_U,
  ...brIf(1),
  ...get(ROW),
  ...get(J),
  ...I32_ADD,
  ...V128_LOAD,
  ...set(A),
  ...get(Q),
  ...get(J),
  ...I32_ADD,
  ...V128_LOAD,
  ...set(B),
  ...get(ACC),
  ...get(A),
  ...EXTEND_LOW_S,
  ...get(B),
  ...EXTEND_LOW_S,
  ...DOT,
  ...ADD4,
  ...get(A),
  ...EXTEND_HIGH_S,
  ...get(B),
  ...EXTEND_HIGH_S,
  ...DOT,
  ...ADD4,
  ...set(ACC),
  ...get(J),
  ...i32Const(16),
  ...I32_ADD,
  ...set(J),
  ...br(0),
  ...END,
  ...END,
  // out[i] = the four lanes' sum
  ...get(OUT),
  ...get(I),
  ...i32Const(2),
  ...I32_SHL,
  ...I32_ADD,
  ...get(ACC),
  ...lane(0),
  ...get(ACC),
  ...lane(1),
  ...I32_ADD,
  ...get(ACC),
  ...lane(2),
  ...I32_ADD,
  ...get(ACC),
  ...lane(3),
  ...I32_ADD,
  ...I32_STORE,
  ...get(I),
  ...i32Const(1),
  ...I32_ADD,
  ...set(I),
  ...br(0),
  ...END,
  ...END,
  ...END, // the function's end
];
const locals = vec([
  [3, I32],
  [3, V128],
]);
const code = [...locals, ...body];

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, vec([[0x60, ...vec(new Array<number[]>(6).fill([I32])), ...vec([])]])),
  ...section(3, vec([[0]])),
  ...section(5, vec([[0x00, 1]])), // memory: 1 page at first, grown by the caller
  ...section(
    7,
    vec([
      [...name("memory"), 0x02, 0],
      [...name("dot"), 0x00, 0],
    ]),
  ),
  ...section(10, vec([[...uleb(code.length), ...code]])),
]);

/** The WebAssembly API this module uses (the project's TypeScript libraries declare no WebAssembly global). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

export interface DotKernel {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  /** Writes `count` int32 dot products of the query at `q` with rows `rows[i]` (int32 indices at `rows`) to `out`. */
  dot(q: number, base: number, rows: number, count: number, dim: number, out: number): void;
}

const compiled = new wasm.Module(MODULE);

/** A kernel with its own memory (one per index: each grows on its own). */
export function createDotKernel(): DotKernel {
  return new wasm.Instance(compiled, {}).exports as DotKernel;
}
