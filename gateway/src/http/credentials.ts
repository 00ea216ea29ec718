import { AuthError } from "@auth/errors";
import type { Session } from "@auth/proto/session";
import { TokenStatus } from "@auth/proto/session";
import { companyCodeShape } from "@auth/runtime";
import type { Request } from "express";
import type { Backends } from "../backends.js";
import type { TenantCompany } from "../endpoint/context.js";
import { type StateName, stateName } from "../endpoint/states.js";
import { CompanyCache } from "./company-cache.js";

/** RFC 6750 §2.1 `Bearer <token68>`; the scheme in any case, as RFC 7235 §2.1 makes it case-insensitive. */
const bearer = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * spec 5.1 with docs/api-contract.md, "Requests and responses": the `X-API-Key` header must hold a
 * key of the path's company.
 */
export async function authenticateCompany(
  request: Request,
  backends: Backends,
  cache: CompanyCache,
): Promise<TenantCompany> {
  const apiKey = request.get("x-api-key");
  if (!apiKey) throw new AuthError("auth.apikey.missing");
  const companyCode = String(request.params.company ?? "");
  if (!companyCodeShape.test(companyCode) || apiKey.length > 256) throw new AuthError("auth.apikey.invalid");
  return cache.getOrLoad(CompanyCache.key(companyCode, apiKey), async () => {
    const { company } = await backends.identity.authenticateApiKey({ companyCode, apiKey });
    if (!company?.policy)
      throw new AuthError("internal.error", { detail: "identity returned no company policy" });
    return { ...company, policy: company.policy };
  });
}

/** spec 5.2 and 5.4: the token of the `Authorization: Bearer` header. */
export function bearerTokenOf(request: Request): string {
  const header = request.get("authorization");
  if (header === undefined) throw new AuthError("auth.header.missing");
  const token = bearer.exec(header)?.[1];
  if (!token) throw new AuthError("auth.header.invalid");
  return token;
}

/** spec 5.2 to 5.4: the bearer token, its session, and whether the session is in an accepted state. */
export async function authenticateSession(
  request: Request,
  backends: Backends,
  company: TenantCompany,
  acceptedStates: ReadonlySet<StateName | "any">,
): Promise<{ token: string; session: Session; state: StateName }> {
  const token = bearerTokenOf(request);
  const { status, session } = await backends.session.introspectSession({ sessionToken: token });
  if (status === TokenStatus.EXPIRED) throw new AuthError("auth.token.expired");
  // A token of another company is as unknown here as a forged one.
  if (status !== TokenStatus.ACTIVE || !session || session.companyId !== company.id) {
    throw new AuthError("auth.token.invalid");
  }
  const state = stateName(session.state);
  if (!acceptedStates.has("any") && !acceptedStates.has(state)) throw new AuthError("auth.session.invalid");
  return { token, session, state };
}
