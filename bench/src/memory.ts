import { readFileSync } from "node:fs";

function residentKib(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Samples the resident memory of processes while a scenario runs and keeps each one's peak. */
export class MemorySampler {
  readonly #peaks = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly processes: Array<{ name: string; pid: number | undefined }>) {}

  start(): void {
    this.#peaks.clear();
    const sample = () => {
      for (const { name, pid } of this.processes) {
        if (pid === undefined) continue;
        this.#peaks.set(name, Math.max(this.#peaks.get(name) ?? 0, residentKib(pid)));
      }
    };
    sample();
    this.#timer = setInterval(sample, 200);
  }

  /** Peak resident memory per process, in MiB. */
  stop(): Record<string, number> {
    clearInterval(this.#timer);
    return Object.fromEntries([...this.#peaks].map(([name, kib]) => [name, Math.round(kib / 1024)]));
  }
}
