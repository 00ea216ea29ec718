import type { Answer } from "@auth/testing/api";

/** The answers call() got in this test file (each file runs with modules of its own). */
export const answers: Answer[] = [];
