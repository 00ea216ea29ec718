import { AuthError, type ErrorCode } from "@auth/errors";
import { z } from "zod";
import type { EndedToken, FlowContext, ResponseFields, SessionFlowContext } from "./context.js";
import { fields } from "./fields.js";
import type { SuccessFields } from "./responses.js";
import type { Step } from "./step.js";
import { type Operation, type sessionless, type TakesToken, takesToken } from "./transitions.js";

/**
 * What an endpoint that takes a secret, sends a message or makes a service call out (oauth: identity
 * asks the provider) is limited by: the client's address always, and the login ID where the request
 * names one (in its body or its session). Every other endpoint is counted per client address too, in
 * a count of its own (http/rate-limits.ts).
 */
export type RateLimit = "address" | "address and login ID";

/** An error answer whose status is not the error table's. */
export interface ErrorAnswer {
  code: ErrorCode;
  status: number;
}

/**
 * What the endpoint answers while its company's authentication is suspended (docs/decisions.md,
 * "Suspension"): auth.restricted where the spec lists it (the login steps), auth.user.restricted on
 * the others that start or advance a session or send a message, whose lists lack it; "serve" for
 * one that starts and sends nothing (logout).
 */
export type WhileSuspended = "auth.restricted" | "auth.user.restricted" | "serve";

/** The flow context of an operation: with the session where the transition table gives it a token. */
export type ContextOf<O extends Operation, Body> =
  TakesToken<O> extends true ? SessionFlowContext<Body> : FlowContext<Body>;

/** One endpoint, all of it: the routes, the OpenAPI document and the rate limits are made from these. */
export interface EndpointDeclaration<
  O extends Operation,
  Body extends z.ZodObject,
  Responses extends z.ZodType,
> {
  /** The path under /{company_code}/v2/auth/; the states it takes a token in are the transition table's. */
  operation: O;
  /** The OpenAPI summary. */
  summary: string;
  /**
   * The request body; unknown fields are dropped, a mismatch is request.validation.failed. Every
   * body takes `language` too (withLanguage), which the pipeline reads for the flow (context.language).
   */
  body: Body;
  /** The success answer; the flow returns its fields. */
  responses: Responses;
  /**
   * The steps the flow runs that may refuse a request (endpoint/step.ts): what the flow answers
   * beyond the checks every request goes through (spec section 4 with docs/api-contract.md,
   * "Requests and responses") is their codes and `errors`.
   */
  steps: readonly Step[];
  /** The codes the flow answers itself, each with the error table's status unless given. */
  errors: readonly (ErrorCode | ErrorAnswer)[];
  /**
   * The OpenAPI document's examples: a realistic request, and a success answer for each outcome
   * (the error answers' examples come from the error table).
   */
  examples: { request: z.input<Body>; answers: readonly SuccessFields<Responses>[] };
  /** Absent: counted per client address with the other endpoints that have none (docs/decisions.md, "Requests and responses"). */
  rateLimit?: RateLimit;
  /**
   * The flow counts the body's login ID before it calls anything (its first step): the client
   * address is then counted with the login ID, in one step (http/held-address-count.ts), rather
   * than before the body is read. Not for a flow that calls out first (recovery/recover asks the
   * captcha), whose address must be counted before that call.
   */
  countsLoginIdFirst?: boolean;
  whileSuspended: WhileSuspended;
  /**
   * Takes an Idempotency-Key (docs/decisions.md, "Idempotency-Key"): the flow must make its change
   * at most once for one `context.retryKey`.
   */
  idempotent?: boolean;
  // Properties, not methods: a handler that asks for more than its context (a session the operation
  // has not) fails typecheck.
  handle: (context: ContextOf<O, z.output<Body>>) => Promise<SuccessFields<Responses>>;
  /**
   * For a request with an Idempotency-Key whose token is unknown: the answer when the same request
   * ended the token before (its answer was lost), or undefined (then auth.token.invalid).
   */
  endedByItself?: (ended: EndedToken) => Promise<SuccessFields<Responses> | undefined>;
}

interface EndpointBase<O extends Operation>
  extends Omit<EndpointDeclaration<O, z.ZodObject, z.ZodType>, "handle" | "endedByItself" | "idempotent"> {
  idempotent: boolean;
  /** POST with a JSON body, as every endpoint of the spec; GET for a read (defineRead), which takes none. */
  method: "POST" | "GET";
  /** The success answer's Cache-Control, where it may be kept (a read); every other answer is no-store. */
  cacheControl?: string;
}

export interface OpenEndpoint<O extends Operation = Operation> extends EndpointBase<O> {
  takesToken: false;
  handle(context: FlowContext): Promise<ResponseFields>;
}

export interface SessionEndpoint<O extends Operation = Operation> extends EndpointBase<O> {
  takesToken: true;
  handle(context: SessionFlowContext): Promise<ResponseFields>;
  endedByItself?(ended: EndedToken): Promise<ResponseFields | undefined>;
}

export type Endpoint<O extends Operation = Operation> = OpenEndpoint<O> | SessionEndpoint<O>;

/** The key, the token and the body have been checked; a suspended company goes no further. */
function unlessSuspended<C extends FlowContext, R>(
  whileSuspended: WhileSuspended,
  handle: (context: C) => Promise<R>,
): (context: C) => Promise<R> {
  if (whileSuspended === "serve") return handle;
  return (context) => {
    if (context.company.suspended) throw new AuthError(whileSuspended, { detail: "company suspended" });
    return handle(context);
  };
}

/** The body with the request's `language` field, its description (the OpenAPI document's) kept. */
function withLanguage(body: z.ZodObject): z.ZodObject {
  const extended = body.safeExtend({ language: fields.language });
  const meta = body.meta();
  return meta ? extended.meta(meta) : extended;
}

/**
 * An endpoint: without Authorization header, or with `Authorization: Bearer <session_token>` in the
 * states of the transition table; its flow answers the fields of its response schema.
 */
export function defineEndpoint<O extends Operation, Body extends z.ZodObject, Responses extends z.ZodType>(
  declaration: EndpointDeclaration<O, Body, Responses>,
): Endpoint<O> {
  const { handle, whileSuspended, idempotent, body, ...rest } = declaration;
  const endpoint = {
    ...rest,
    body: withLanguage(body),
    method: "POST",
    whileSuspended,
    idempotent: idempotent ?? false,
    takesToken: takesToken(declaration.operation),
    handle: unlessSuspended(whileSuspended, handle),
  };
  // The pipeline gives the handler what its declaration asks for: the body parsed by `body`, and the
  // session where the transition table gives the operation a token (takesToken).
  return endpoint as unknown as Endpoint<O>;
}

/** A read of what the company shows to anyone with its API key (docs/api-contract.md, "Brand"). */
export interface ReadDeclaration<O extends (typeof sessionless)[number], Responses extends z.ZodType> {
  operation: O;
  /** The OpenAPI summary. */
  summary: string;
  /** The success answer; the flow returns its fields. */
  responses: Responses;
  /** The OpenAPI document's examples of a success answer. */
  examples: { answers: readonly SuccessFields<Responses>[] };
  /** How long a browser or a proxy may keep the answer: it holds nothing of a user. */
  cacheControl: string;
  handle: (context: FlowContext<Record<string, never>>) => Promise<SuccessFields<Responses>>;
}

/**
 * A read: `GET` with the API key and no body, session or change, answered for a suspended company
 * too (it starts nothing); counted per client address with the endpoints that have no rate-limit
 * class. Its success answer carries its Cache-Control.
 */
export function defineRead<O extends (typeof sessionless)[number], Responses extends z.ZodType>(
  declaration: ReadDeclaration<O, Responses>,
): Endpoint<O> {
  const { examples, ...rest } = declaration;
  const endpoint = {
    ...rest,
    method: "GET",
    body: z.strictObject({}),
    examples: { request: {}, answers: examples.answers },
    steps: [],
    errors: [],
    whileSuspended: "serve",
    idempotent: false,
    takesToken: false,
  };
  // As defineEndpoint's: the pipeline gives a read's handler the context its declaration asks for.
  return endpoint as unknown as Endpoint<O>;
}
