import { AuthError } from "@auth/errors";

/** The requests about one login ID: how many are worked on, and those waiting their turn. */
interface Line {
  working: number;
  waiting: Array<() => void>;
}

/**
 * The requests about one login ID (the key its rate limit counts), worked on a few at a time
 * (docs/operations.md, "A burst at one user"): at most `perLoginId` at once in this gateway, the
 * others waiting their turn in order of arrival. A burst at one user so waits on itself, and the
 * services (their CPU, identity's database connections) stay with everyone else. A request that
 * waits past its time is refused as a rate limit refuses it.
 */
export class LoginIdTurns {
  readonly #lines = new Map<string, Line>();

  constructor(private readonly perLoginId: number) {}

  /** Waits for a turn of the key until `deadline` (epoch ms) at most; resolves with what gives it back. */
  async take(key: string, deadline: number): Promise<() => void> {
    const line = this.#lines.get(key) ?? { working: 0, waiting: [] };
    this.#lines.set(key, line);
    if (line.working < this.perLoginId) line.working += 1;
    else await this.#wait(line, deadline);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      // The turn goes to the next in line, or the line is done with.
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.working === 0) this.#lines.delete(key);
    };
  }

  /** Login IDs with requests under way or waiting. */
  get size(): number {
    return this.#lines.size;
  }

  #wait(line: Line, deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        line.waiting.splice(line.waiting.indexOf(turn), 1);
        reject(
          new AuthError("request.ratelimit.exceeded", {
            retryAfterSeconds: 1,
            detail: "too many requests about this login ID at once",
          }),
        );
      }, deadline - Date.now());
      line.waiting.push(turn);
    });
  }
}
