import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

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

/** The ports a process reports it bound (runtime's reportListening). */
export type BoundPorts = Record<string, number | undefined>;

/**
 * One process of the suite: started with node in a process group of its own, stopped with SIGTERM
 * (SIGKILL after a grace period). A terminal's Ctrl-C signals the launcher's group alone, so that each
 * process is asked to stop once, by the launcher, in the order the launcher chooses; a process whose
 * launcher is gone stops by itself (runtime's whenLauncherGone).
 */
export class Child {
  #process: ChildProcess | undefined;
  #exited: Promise<number | null> = Promise.resolve(null);
  #listening: Promise<BoundPorts> = new Promise(() => {});

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
        // A fourth pipe, on which the process reports the ports it bound.
        env: { ...this.options.env, LISTEN_REPORT_FD: "3" },
        stdio: ["ignore", "pipe", "pipe", "pipe"],
        detached: true,
      },
    );
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream as Readable }).on("line", (line) =>
        this.options.onLine(this.options.name, line),
      );
    }
    this.#listening = new Promise((resolve) => {
      createInterface({ input: child.stdio[3] as Readable }).once("line", (line) =>
        resolve(JSON.parse(line) as BoundPorts),
      );
    });
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    this.#process = child;
  }

  /** The ports the process bound, once it has; never settles if it ends first (see exited()). */
  listening(): Promise<BoundPorts> {
    return this.#listening;
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
