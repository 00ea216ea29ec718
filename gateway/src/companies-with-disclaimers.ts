import { AuthError } from "@auth/errors";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import type { Backends } from "./backends.js";

/**
 * The companies that have disclaimers, as the disclaimer service last listed them: what a login goes
 * by while that service cannot be reached (docs/decisions.md, "Disclaimers while their service is
 * down"). Read at start and every `refreshMs` after the last read ended. While the service cannot
 * be reached the last list stands (nobody can create a disclaimer meanwhile either); any other
 * failure forgets it, as the service answers and may have changed.
 */
export class CompaniesWithDisclaimers {
  /** undefined until the first list, and after a failure other than service.unavailable. */
  #listed: ReadonlySet<string> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** How the last read went, so that the log tells each change once rather than every read. */
  #lastOutcome: "read" | "unreachable" | "refused" | undefined;

  constructor(
    private readonly disclaimer: Pick<Backends["disclaimer"], "listCompaniesWithDisclaimers">,
    private readonly refreshMs: number,
    private readonly logger: Logger,
  ) {}

  /** Whether the company had no active disclaimer when the service last listed them; false when no list stands. */
  knownToHaveNone(companyId: string): boolean {
    return this.#listed !== undefined && !this.#listed.has(companyId);
  }

  /** Reads the list now, then again every refreshMs until stop(). */
  start(): void {
    void this.#refreshAndReschedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** Reads the list once; what a failure does to the last one is the class's rule. */
  async refresh(): Promise<void> {
    try {
      const { companyIds } = await this.disclaimer.listCompaniesWithDisclaimers({});
      this.#listed = new Set(companyIds);
      metrics.disclaimerCompaniesRead.set(Date.now() / 1000);
      if (this.#lastOutcome !== "read")
        this.logger.info({ companies: companyIds.length }, "companies with disclaimers read");
      this.#lastOutcome = "read";
    } catch (error) {
      const outcome =
        error instanceof AuthError && error.code === "service.unavailable" ? "unreachable" : "refused";
      if (outcome === "refused") this.#listed = undefined;
      if (outcome !== this.#lastOutcome)
        this.logger.warn(
          { err: error, lastList: this.#listed === undefined ? "none" : "kept" },
          "companies with disclaimers not read",
        );
      this.#lastOutcome = outcome;
    }
  }

  async #refreshAndReschedule(): Promise<void> {
    await this.refresh();
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#refreshAndReschedule(), this.refreshMs);
    this.#timer.unref();
  }
}
