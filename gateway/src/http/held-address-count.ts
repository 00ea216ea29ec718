import type { TenantCompany } from "../endpoint/context.js";
import type { Endpoint, RateLimit } from "../endpoint/define.js";
import type { RateLimits } from "./rate-limits.js";

/**
 * Whether the endpoint's requests name their login ID in the body and their flow counts it before
 * it calls anything (login, checkcredentials): their address's count is held until then.
 */
export function holdsAddressCount(endpoint: Endpoint): boolean {
  return (
    !endpoint.takesToken &&
    endpoint.rateLimit === "address and login ID" &&
    endpoint.countsLoginIdFirst === true
  );
}

/**
 * The client address's count of a request whose login ID is in its body, held until the flow
 * names the login ID, then made with the login ID's in one step (RateLimits.byAddressAndLoginId:
 * the login ID counted only when the address is within its limit); made alone when the request
 * ends before that (a body refused, a suspended company). Their flows name the login ID before
 * they call anything (`countsLoginIdFirst`), so the address is still counted once, first, and
 * before any call.
 */
export class HeldAddressCount {
  #counted = false;

  constructor(
    private readonly rateLimits: RateLimits,
    private readonly company: TenantCompany,
    private readonly limit: RateLimit | undefined,
    private readonly address: string,
  ) {}

  /** Counts the address with the login ID; the login ID alone once the address is counted. */
  withLoginId(loginId: string): Promise<void> {
    if (this.#counted) return this.rateLimits.byLoginId(this.company, this.limit, loginId);
    this.#counted = true;
    return this.rateLimits.byAddressAndLoginId(this.company, this.limit, this.address, loginId);
  }

  /** Counts the address alone, unless it is counted already. */
  alone(): Promise<void> {
    if (this.#counted) return Promise.resolve();
    this.#counted = true;
    return this.rateLimits.byAddress(this.company, this.limit, this.address);
  }
}
