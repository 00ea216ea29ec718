import type { Language } from "@auth/i18n";
import type { Company, CompanyPolicy } from "@auth/proto/identity";
import type { Session } from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import type { Backends } from "../backends.js";
import type { CompaniesWithDisclaimers } from "../companies-with-disclaimers.js";
import type { StateName } from "./states.js";
import type { Operation } from "./transitions.js";

/** The company of the request's API key, with its policy. */
export type TenantCompany = Company & { policy: CompanyPolicy };

/** The fields of a success response besides `status`. */
export type ResponseFields = Record<string, unknown>;

/** What a flow step knows about the request once the API key and the body have been checked. */
export interface FlowContext<Body = unknown> {
  operation: Operation;
  company: TenantCompany;
  body: Body;
  /**
   * The language of the messages the request sends and of its error answers (docs/decisions.md,
   * "Languages"): the body's `language`, Accept-Language, the company's default, English. Chosen
   * when first read (http/request-language.ts).
   */
  readonly language: Language;
  /** The client's address as express reads it (honouring TRUST_PROXY). */
  clientAddress: string;
  /** The client's User-Agent header, as sent ("" without one): client input, to record, never to trust. */
  userAgent: string;
  /**
   * The client's X-Device-Id header when it has the shape of one, else "" (docs/api-contract.md,
   * "Known devices"): client input, which tells the user's devices apart, never trusted.
   */
  deviceId: string;
  /** The services' clients as this request uses them: each call carries its deadline and origin (backends.ts). */
  backends: Backends;
  /** Which companies have disclaimers: whom a login need not ask, or cannot (steps/disclaimers.ts). */
  companiesWithDisclaimers: CompaniesWithDisclaimers;
  /** Counts the request against a login ID's rate limit: request.ratelimit.exceeded beyond it. */
  countLoginId(loginId: string): Promise<void>;
  log: Logger;
}

/** A flow context whose request carried a valid token in one of the operation's states. */
export interface SessionFlowContext<Body = unknown> extends FlowContext<Body> {
  token: string;
  session: Session;
  state: StateName;
  /**
   * Names the request to the service that owns its change, when it carries an Idempotency-Key:
   * derived from the key, the token and the body (http/idempotency.ts).
   */
  retryKey?: string;
}

/** A token the request's own earlier try may have ended (steps/ended-by-itself.ts): what names that try. */
export interface EndedToken {
  backends: Backends;
  company: TenantCompany;
  token: string;
  retryKey: string;
}
