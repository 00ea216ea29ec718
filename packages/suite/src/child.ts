import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface ChildOptions {
  name: string;
  entry: string;
  /** Modules node loads before the entry (`--import`). */
  preload?: string[];
  /** Further node flags (for example --cpu-prof). */
  nodeArgs?: string[];
  env: NodeJS.ProcessEnv;
  /** Receives each line the process writes to stdout or stderr. */
  onLine: (name: string, line: string) => void;
}

/** One process of the suite: started with node, stopped with SIGTERM (SIGKILL after a grace period). */
export class Child {
  #process: ChildProcess | undefined;
  #exited: Promise<number | null> = Promise.resolve(null);

  constructor(readonly options: ChildOptions) {}

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  get running(): boolean {
    return (
      this.#process !== undefined && this.#process.exitCode === null && this.#process.signalCode === null
    );
  }

  start(): void {
    const preload = (this.options.preload ?? []).flatMap((module) => ["--import", module]);
    const child = spawn(
      process.execPath,
      [...(this.options.nodeArgs ?? []), ...preload, this.options.entry],
      {
        env: this.options.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => this.options.onLine(this.options.name, line));
    }
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    this.#process = child;
  }

  /** Resolves with the exit code once the process is gone. */
  exited(): Promise<number | null> {
    return this.#exited;
  }

  async stop(graceMs = 10_000): Promise<void> {
    const child = this.#process;
    if (!child || !this.running) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }

  /** Ends the process at once, as a crash would. */
  async kill(): Promise<void> {
    if (!this.#process || !this.running) return;
    this.#process.kill("SIGKILL");
    await this.#exited;
  }
}
