import { AuthError } from "@auth/errors";
import { deviceIdOf, type Logger } from "@auth/runtime";
import express, { type Request, type RequestHandler, type Response } from "express";
import { type Backends, backendsForRequest } from "../backends.js";
import type { CompaniesWithDisclaimers } from "../companies-with-disclaimers.js";
import type { FlowContext, TenantCompany } from "../endpoint/context.js";
import type { Endpoint } from "../endpoint/define.js";
import { statesFor } from "../endpoint/transitions.js";
import { parseJsonObject, validateBody } from "./body.js";
import type { CompanyCache } from "./company-cache.js";
import { authenticateCompany, authenticateSession, bearerTokenOf } from "./credentials.js";
import { sendSuccess } from "./envelope.js";
import { HeldAddressCount, holdsAddressCount } from "./held-address-count.js";
import { type IdempotentAnswers, keyedRequest, replayed, taken } from "./idempotency.js";
import type { LoginIdTurns } from "./login-id-turns.js";
import { loginIdKey, type RateLimits } from "./rate-limits.js";
import { noteRequestedLanguage, requestLanguage } from "./request-language.js";
import { requestOriginOf } from "./request-origin.js";

export interface PipelineDependencies {
  backends: Backends;
  /** Which companies have disclaimers, as the disclaimer service last listed them. */
  companiesWithDisclaimers: CompaniesWithDisclaimers;
  /** Milliseconds from a request's arrival by which every call it makes must be answered. */
  requestDeadlineMs: number;
  rateLimits: RateLimits;
  /** Takes the turn of the login ID a request is about, once its rate limit has counted it. */
  turns: LoginIdTurns;
  companies: CompanyCache;
  /** The answers replayed to requests with an Idempotency-Key (idempotency.ts). */
  answers: IdempotentAnswers;
  logger: Logger;
}

/** The body limit (docs/api-contract.md, "Requests and responses"); any content type is read as JSON. */
const readBody = express.raw({ type: () => true, limit: "16kb" });

/** A body that cannot be read (too large) still costs the client address its count. */
const readBodyCountingAddress: RequestHandler = (request, response, next) =>
  readBody(request, response, (error?: unknown) => {
    if (error === undefined) return next();
    const held: HeldAddressCount = response.locals.heldAddressCount;
    held.alone().then(
      () => next(error),
      (refused: unknown) => next(refused),
    );
  });

/** A request with an Idempotency-Key has its body read first: the body is part of what the key names. */
const readBodyWhenKeyed: RequestHandler = (request, response, next) =>
  request.get("idempotency-key") === undefined ? next() : readBody(request, response, next);

/**
 * The handlers of one endpoint, in the order of checks (docs/api-contract.md, "Requests and responses"):
 * API key; the client address's rate limit, for every endpoint; then Authorization header, token and
 * session state where the endpoint takes a token; then the body; then the flow.
 * An idempotent endpoint's request with an Idempotency-Key is answered, after the rate limit and
 * before the token is checked, with the answer of an earlier request with the same key, token and
 * body when there is one; its own answer is kept only once its token is found valid
 * (docs/decisions.md, "Idempotency-Key"), so that made-up tokens write nothing.
 */
export function endpointHandlers(endpoint: Endpoint, dependencies: PipelineDependencies): RequestHandler[] {
  const acceptedStates = statesFor(endpoint.operation);
  const holdsAddress = holdsAddressCount(endpoint);
  const {
    backends,
    companiesWithDisclaimers,
    logger,
    companies,
    rateLimits,
    turns,
    requestDeadlineMs,
    answers,
  } = dependencies;

  const authenticate: RequestHandler = async (request, response, next) => {
    response.locals.operation = endpoint.operation;
    // One deadline for the whole request, from its arrival: each call it makes gets only what the
    // calls before it left, and carries the request's origin (backendsForRequest).
    response.locals.deadline = Date.now() + requestDeadlineMs;
    response.locals.origin = requestOriginOf(request);
    const calls: Backends = backendsForRequest(backends, response.locals.deadline, response.locals.origin);
    response.locals.backends = calls;
    const company = await authenticateCompany(request, calls, companies);
    response.locals.company = company;
    // Every request the API key lets in is counted, before its token is looked at: a made-up token
    // costs the client its limit like any other request. One whose login ID is in its body, with
    // its login ID, in one step, once the flow names it (held-address-count.ts).
    const clientAddress = response.locals.origin.clientAddress;
    if (holdsAddress) {
      response.locals.heldAddressCount = new HeldAddressCount(
        rateLimits,
        company,
        endpoint.rateLimit,
        clientAddress,
      );
    } else await rateLimits.byAddress(company, endpoint.rateLimit, clientAddress);
    const named = endpoint.idempotent ? keyedRequest(endpoint.operation, request, response) : undefined;
    const keyed = named && answers.attempt(named, response.locals.deadline);
    if (keyed && (await replayed(keyed, response, logger))) return;
    if (endpoint.takesToken) {
      try {
        response.locals.session = await authenticateSession(request, calls, company, acceptedStates);
      } catch (error) {
        if (!(keyed && error instanceof AuthError && error.code === "auth.token.invalid")) throw error;
        // The same request may have ended the token meanwhile (a parallel try) or before (its answer
        // lost): its answer, kept since, or the word of the session service that it was this request.
        if (await replayed(keyed, response, logger)) return;
        const ended = await endpoint.endedByItself?.({
          backends: calls,
          company,
          token: bearerTokenOf(request),
          retryKey: keyed.request.retryKey,
        });
        if (!ended) throw error;
        sendSuccess(response, ended);
        return;
      }
    }
    if (keyed && (await taken(keyed, response, logger))) return;
    next();
  };

  /** The body as the endpoint reads it; its `language` noted first, for the answer to a body it refuses. */
  const checkedBody = (request: Request, response: Response): unknown => {
    // A GET's body, if one came, is not read: it is none of the request (RFC 9110, 9.3.1).
    if (endpoint.method === "GET") return {};
    const body = parseJsonObject(request.body);
    noteRequestedLanguage(response, body);
    return validateBody(endpoint.body, body);
  };

  const run: RequestHandler = async (request, response) => {
    const held: HeldAddressCount | undefined = response.locals.heldAddressCount;
    try {
      await runFlow(request, response, held);
    } catch (error) {
      // A request that ends before its flow named the login ID (a body refused, a suspended
      // company) is counted by its address alone, and refused as the address's count says first.
      await held?.alone();
      throw error;
    }
  };

  const runFlow = async (request: Request, response: Response, held: HeldAddressCount | undefined) => {
    const body = checkedBody(request, response);
    const company: TenantCompany = response.locals.company;
    /** Gives back the turns of the login IDs the request took, once it is answered. */
    const turnsTaken: Array<() => void> = [];
    const context: FlowContext = {
      operation: endpoint.operation,
      company,
      body,
      get language() {
        return requestLanguage(request, response);
      },
      clientAddress: response.locals.origin.clientAddress,
      userAgent: request.get("user-agent") ?? "",
      deviceId: deviceIdOf(request.get("x-device-id")),
      backends: response.locals.backends,
      companiesWithDisclaimers,
      countLoginId: async (loginId) => {
        await (held ? held.withLoginId(loginId) : rateLimits.byLoginId(company, endpoint.rateLimit, loginId));
        const key = loginIdKey(company, endpoint.rateLimit, loginId);
        if (key === undefined) return;
        // A request waits for its turn half its time at most, and has the other half for its work.
        turnsTaken.push(await turns.take(key, response.locals.deadline - requestDeadlineMs / 2));
      },
      log: logger,
    };
    try {
      // A session's login ID is counted here; a login ID in the body once the flow has looked it up
      // (steps/login-lookup.ts), so that every spelling of it shares one count.
      if (endpoint.takesToken) {
        await context.countLoginId(response.locals.session.session.loginId);
        // Assigned, not spread: a spread would read `language`, which is chosen only when a flow reads it.
        sendSuccess(
          response,
          await endpoint.handle(
            Object.assign(context, response.locals.session, { retryKey: response.locals.retryKey }),
          ),
        );
      } else {
        const fields = await endpoint.handle(context);
        await held?.alone();
        if (endpoint.cacheControl) {
          response.setHeader("Cache-Control", endpoint.cacheControl);
          // A cache keeps it for this key only: another key, or none, is checked anew.
          response.setHeader("Vary", "X-API-Key");
        }
        sendSuccess(response, fields);
      }
    } finally {
      for (const giveBack of turnsTaken) giveBack();
    }
  };

  return [
    ...(endpoint.idempotent ? [readBodyWhenKeyed] : []),
    authenticate,
    ...(endpoint.method === "POST" ? [holdsAddress ? readBodyCountingAddress : readBody] : []),
    run,
  ];
}
