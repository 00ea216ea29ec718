import { AuthError, type ErrorCode } from "@auth/errors";
import type { Company, CompanyPolicy } from "@auth/proto/identity";
import type { Session } from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import type { z } from "zod";
import type { SuccessFields } from "../api/responses.js";
import type { Backends } from "../backends.js";
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
  /** The client's address as express reads it (honouring TRUST_PROXY). */
  clientAddress: string;
  /** The trace id of the request (a random one when tracing is off), for security events. */
  traceId: string;
  backends: Backends;
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

interface EndpointBase<O extends Operation, S extends z.ZodType> {
  operation: O;
  /** The request body; unknown fields are dropped, a mismatch is request.validation.failed. */
  body: S;
  /** Takes an Idempotency-Key (docs/decisions.md, "Idempotency-Key"). */
  idempotent: boolean;
}

export interface OpenEndpoint<O extends Operation = Operation, S extends z.ZodType = z.ZodType>
  extends EndpointBase<O, S> {
  takesToken: false;
  handle(context: FlowContext<z.infer<S>>): Promise<SuccessFields<O>>;
}

/** A token the request's own earlier try may have ended (logout): what names that try. */
export interface EndedToken {
  backends: Backends;
  token: string;
  retryKey: string;
}

export interface SessionEndpoint<O extends Operation = Operation, S extends z.ZodType = z.ZodType>
  extends EndpointBase<O, S> {
  takesToken: true;
  handle(context: SessionFlowContext<z.infer<S>>): Promise<SuccessFields<O>>;
  /**
   * For a request with an Idempotency-Key whose token is unknown: the answer when the same request
   * ended the token before (its answer was lost), or undefined (then auth.token.invalid).
   */
  endedByItself?(ended: EndedToken): Promise<SuccessFields<O> | undefined>;
}

export type Endpoint = OpenEndpoint | SessionEndpoint;

/**
 * What an endpoint answers while its company's authentication is suspended (docs/decisions.md,
 * "Suspension"): auth.restricted where the spec lists it (the login steps), auth.user.restricted on
 * the others that start or advance a session or send a message, whose lists lack it. logout, which
 * starts and sends nothing, serves on.
 */
const whileSuspended: Record<Operation, ErrorCode | undefined> = {
  login: "auth.restricted",
  checkpassword: "auth.restricted",
  checkotp: "auth.restricted",
  checkcredentials: "auth.restricted",
  acceptdisclaimers: "auth.restricted",
  renewotp: "auth.user.restricted",
  setpassword: "auth.user.restricted",
  oauth: "auth.user.restricted",
  logout: undefined,
  "recovery/recover": "auth.user.restricted",
  "recovery/checkotp": "auth.user.restricted",
  "recovery/renewotp": "auth.user.restricted",
  "recovery/checkquestion": "auth.user.restricted",
  "recovery/checklink": "auth.user.restricted",
};

/** The key, the token and the body have been checked; a suspended company goes no further. */
function unlessSuspended<C extends FlowContext, R>(
  operation: Operation,
  handle: (context: C) => Promise<R>,
): (context: C) => Promise<R> {
  const refusal = whileSuspended[operation];
  if (!refusal) return handle;
  return (context) => {
    if (context.company.suspended) throw new AuthError(refusal, { detail: "company suspended" });
    return handle(context);
  };
}

/** An endpoint without Authorization header; it answers the fields of its response schema (api/responses.ts). */
export function openEndpoint<O extends Operation, S extends z.ZodType>(
  operation: O,
  body: S,
  handle: (context: FlowContext<z.infer<S>>) => Promise<SuccessFields<O>>,
): OpenEndpoint<O, S> {
  return {
    operation,
    body,
    takesToken: false,
    idempotent: false,
    handle: unlessSuspended(operation, handle),
  };
}

/**
 * An endpoint that takes `Authorization: Bearer <session_token>` in the states of the transition
 * table; an idempotent one also takes an Idempotency-Key, and must make its change at most once for
 * one `context.retryKey`.
 */
export function sessionEndpoint<O extends Operation, S extends z.ZodType>(
  operation: O,
  body: S,
  handle: (context: SessionFlowContext<z.infer<S>>) => Promise<SuccessFields<O>>,
  options: Pick<SessionEndpoint<O, S>, "endedByItself"> & { idempotent?: boolean } = {},
): SessionEndpoint<O, S> {
  return {
    operation,
    body,
    takesToken: true,
    idempotent: options.idempotent ?? false,
    endedByItself: options.endedByItself,
    handle: unlessSuspended(operation, handle),
  };
}
