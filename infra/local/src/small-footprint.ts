/**
 * The flags and environment npm start gives every process of the suite over the production ones:
 * the embedded default trades speed for memory (docs/performance.md, "The embedded default's
 * memory"). 1 MiB semi-spaces and V8's size-first heuristics; JavaScript run by the interpreter
 * only, so that no process touches the pages of node's binary that hold V8's compilers (the
 * processes on PGlite still compile its WebAssembly, with Liftoff); node's start-up state built by
 * its bootstrap code rather than read from the snapshot in its binary, whose pages would stay
 * resident in every process (3 MiB each, for 30-40 ms more CPU at start); and glibc kept from holding
 * freed native memory (argon2's blocks, TLS buffers) in per-thread arenas or below a moving mmap
 * threshold.
 */
export const smallFootprint = {
  nodeArgs: ["--max-semi-space-size=1", "--optimize-for-size", "--max-opt=0", "--no-node-snapshot"],
  commonEnv: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
};
