import { AuthError } from "@auth/errors";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import type { Backends } from "./backends.js";

/**
 * The companies that have disclaimers, as the disclaimer service last listed them: a login of a
 * company the list read less than `refreshMs` ago does not name asks the service nothing
 * (docs/decisions.md, "A company without disclaimers"), and a login goes by the last list, however
 * old, while that service cannot be reached (docs/decisions.md, "Disclaimers while their service is
 * down"). Read at start and every `refreshMs` from the start of the last read. While the service
 * cannot be reached the last list stands (nobody can create a disclaimer meanwhile either); any
 * other failure forgets it, as the service answers and may have changed.
 */
export class CompaniesWithDisclaimers {
  /** undefined until the first list, and after a failure other than service.unavailable. */
  #listed: ReadonlySet<string> | undefined;
  /** When the read that gave #listed was sent (epoch ms): a disclaimer created since may be missing from it. */
  #listedAt = Number.NEGATIVE_INFINITY;
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

  /**
   * Whether the company has no active disclaimer by a list read less than refreshMs ago: then the
   * company's first disclaimer, if one was created since, is at most refreshMs old.
   */
  hasNone(companyId: string): boolean {
    return Date.now() - this.#listedAt < this.refreshMs && this.knownToHaveNone(companyId);
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
    const sentAt = Date.now();
    try {
      const { companyIds } = await this.disclaimer.listCompaniesWithDisclaimers({});
      this.#listed = new Set(companyIds);
      this.#listedAt = sentAt;
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
    const started = Date.now();
    await this.refresh();
    if (this.#stopped) return;
    // From the start of this read, so that the list is rarely older than refreshMs (hasNone).
    this.#timer = setTimeout(
      () => void this.#refreshAndReschedule(),
      Math.max(0, started + this.refreshMs - Date.now()),
    );
    this.#timer.unref();
  }
}
