/** An answer of the gateway to `METHOD /{company}/v2/auth/{operation}`. */
export interface Answer {
  operation: string;
  method: string;
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** The answers call() got in this test file (each file runs with modules of its own). */
export const answers: Answer[] = [];
