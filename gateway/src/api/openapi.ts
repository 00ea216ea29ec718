import type { ErrorCode } from "@auth/errors";
import { companyCodeShape, deviceIdShape } from "@auth/runtime";
import { z } from "zod";
import type { Endpoint, ErrorAnswer } from "../endpoint/define.js";
import { passkeyRequestOptions } from "../endpoint/passkeys.js";
import { disclaimer, errorExample, errorResponse, retryAfter } from "../endpoint/responses.js";
import { type Operation, statesFor, transitions } from "../endpoint/transitions.js";
import { idempotencyHeader, idempotencyKeyShape } from "../http/idempotency.js";
import { errorAnswers } from "./endpoint-errors.js";

type JsonObject = Record<string, unknown>;

export const pathOf = (operation: Operation): string => `/{company_code}/v2/auth/${operation}`;

/** "recovery/checkotp" as "RecoveryCheckotp". */
const nameOf = (operation: Operation): string =>
  operation
    .split("/")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

const tagOf = (operation: Operation): string => {
  const first = operation.split("/")[0];
  return first === "recovery" ||
    first === "sessions" ||
    first === "events" ||
    first === "totp" ||
    first === "passkeys" ||
    first === "backupcodes" ||
    first === "brand"
    ? first
    : "login";
};

const schemaRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** JSON Schemas of the registry's zod schemas, by id; a schema used in another one is referenced as a component. */
function jsonSchemas(registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output") {
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    uri: (id) => schemaRef(id).$ref,
  });
  // Each is a Schema Object of the document, under the document's dialect: no $schema, no $id of its own.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema as JsonObject]),
  );
}

function describeEndpoint(endpoint: Endpoint): string {
  const states = statesFor(endpoint.operation);
  const token = !endpoint.takesToken
    ? "Takes no session token."
    : states.has("any")
      ? "Takes a session token in any state."
      : `Takes a session token in state ${[...states].map((state) => `\`${state}\``).join(" or ")}.`;
  const outcomes = transitions
    .filter((transition) => transition.operation === endpoint.operation)
    .map(({ condition, to }) => `- ${condition}: ${to ? `state \`${to}\`` : "no session token"}`);
  const kept = endpoint.cacheControl
    ? [`The answer may be kept by browsers and proxies: \`Cache-Control: ${endpoint.cacheControl}\`.`, ""]
    : [];
  // docs/decisions.md, "Requests and responses": every endpoint counts per client address.
  const counted = endpoint.rateLimit
    ? `per client ${endpoint.rateLimit}`
    : "per client address (apart from the endpoints that take a secret, send a message or call a provider)";
  return [
    token,
    "",
    ...(outcomes.length > 0 ? ["Outcomes (spec section 3):", ...outcomes, ""] : []),
    ...kept,
    `Requests are counted ${counted}; beyond the limit: \`request.ratelimit.exceeded\`.`,
  ].join("\n");
}

function byStatus(answers: readonly ErrorAnswer[]): Map<number, ErrorCode[]> {
  const statuses = new Map<number, ErrorCode[]>();
  for (const { code, status } of [...answers].sort((a, b) => a.status - b.status)) {
    statuses.set(status, [...(statuses.get(status) ?? []), code]);
  }
  return statuses;
}

function errorHeaders(codes: readonly ErrorCode[]): JsonObject | undefined {
  if (!codes.some((code) => retryAfter[code])) return undefined;
  return {
    "Retry-After": {
      description: "Seconds to wait before trying again",
      required: codes.every((code) => retryAfter[code] === "always"),
      schema: { type: "integer", minimum: 1 },
    },
  };
}

const companyCode = {
  name: "company_code",
  in: "path",
  required: true,
  description: "The client company; an unknown one answers `auth.apikey.invalid`",
  schema: { type: "string", pattern: companyCodeShape.source },
};

const json = (schema: JsonObject, examples?: Record<string, unknown>) => ({
  "application/json": {
    schema,
    examples:
      examples && Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

/** A success answer's example, named for the outcome it shows. */
const answerExamples = (endpoint: Endpoint) =>
  Object.fromEntries(
    endpoint.examples.answers.map((fields) => {
      const outcome = fields.session_state ?? fields.verification ?? "success";
      return [String(outcome), { status: "success", ...fields }];
    }),
  );

const acceptLanguage = {
  name: "Accept-Language",
  in: "header",
  required: false,
  description: [
    "The user's languages (RFC 9110), for the answer's `error_message` and the SMS or e-mail the request sends,",
    "after the body's `language` and before the company's default language: the first the suite speaks",
    "(en, de, fr; de-CH is German) by q-value, a language with q=0 left out.",
  ].join(" "),
  schema: { type: "string" },
};

const deviceId = {
  name: "X-Device-Id",
  in: "header",
  required: false,
  description: [
    'An opaque key the client makes once and keeps (docs/api-contract.md, "Known devices"), read where a',
    "session starts: a sign-in from a device and network the user has not used lately sends the user a notice.",
    "One of another shape is taken as absent, never refused; without one the User-Agent's browser and system tell the device.",
  ].join(" "),
  schema: { type: "string", pattern: deviceIdShape.source },
};

const idempotencyKey = {
  name: idempotencyHeader,
  in: "header",
  required: false,
  description: [
    "Names the request, so that it can be sent again safely after a timeout or a 503.",
    "Another request with the same key, session token and body within 24 hours (10 minutes on a gateway",
    "without Redis) gets the answer this one got",
    "(with `Idempotent-Replayed: true`), or, when this one got none or a 503, makes the change at most once:",
    "it finishes this one's change instead of refusing it. The same key with another body answers",
    "`request.validation.failed` (422); while the first is still under way the second waits for its answer.",
    "Only successes and refusals are replayed; a 429 or a 5xx is not. Use a new key (a UUID) for each new request.",
  ].join(" "),
  schema: { type: "string", pattern: idempotencyKeyShape.source, minLength: 1, maxLength: 255 },
};

/**
 * The OpenAPI 3.1 document of the endpoints, generated from the zod schemas that validate their
 * requests (endpoint.body), the response schemas the flows are typed by (endpoint.responses), and
 * the errors they declare with the error table.
 */
export function openApiDocument(endpoints: readonly Endpoint[]): JsonObject {
  const errorsOf = new Map(endpoints.map((endpoint) => [endpoint, byStatus(errorAnswers(endpoint))]));
  const errorId = (endpoint: Endpoint, status: number) => `${nameOf(endpoint.operation)}Error${status}`;
  const requests = z.registry<{ id: string }>();
  const responses = z.registry<{ id: string }>();
  responses.add(disclaimer, { id: "Disclaimer" });
  responses.add(passkeyRequestOptions, { id: "PasskeyRequestOptions" });
  // The error answers are converted with the rest so that their disclaimers refer to the
  // component, and then written inline in their paths rather than as components.
  const inline = new Set<string>();
  for (const [endpoint, errors] of errorsOf) {
    const name = nameOf(endpoint.operation);
    if (endpoint.method === "POST") requests.add(endpoint.body, { id: `${name}Request` });
    responses.add(endpoint.responses, { id: `${name}Response` });
    for (const [status, codes] of errors) {
      inline.add(errorId(endpoint, status));
      responses.add(errorResponse(codes), { id: errorId(endpoint, status) });
    }
  }
  const converted = { ...jsonSchemas(requests, "input"), ...jsonSchemas(responses, "output") };
  const schemas = Object.fromEntries(Object.entries(converted).filter(([id]) => !inline.has(id)));

  const paths: JsonObject = {};
  for (const [endpoint, errors] of errorsOf) {
    const name = nameOf(endpoint.operation);
    const errorResponses: JsonObject = {};
    for (const [status, codes] of errors) {
      errorResponses[status] = {
        description: codes.map((code) => `\`${code}\``).join(", "),
        headers: errorHeaders(codes),
        content: json(
          converted[errorId(endpoint, status)] ?? {},
          Object.fromEntries(codes.map((code) => [code, errorExample(code)])),
        ),
      };
    }
    paths[pathOf(endpoint.operation)] = {
      parameters: [companyCode],
      [endpoint.method === "GET" ? "get" : "post"]: {
        operationId: name.charAt(0).toLowerCase() + name.slice(1),
        tags: [tagOf(endpoint.operation)],
        summary: endpoint.summary,
        description: describeEndpoint(endpoint),
        security: [endpoint.takesToken ? { apiKey: [], sessionToken: [] } : { apiKey: [] }],
        parameters: [acceptLanguage, deviceId, ...(endpoint.idempotent ? [idempotencyKey] : [])],
        requestBody:
          endpoint.method === "GET"
            ? undefined
            : {
                // An empty body reads as {}: it may be left out where {} is a valid body.
                required: !endpoint.body.safeParse({}).success,
                content: json(schemaRef(`${name}Request`), { request: endpoint.examples.request }),
              },
        responses: {
          200: {
            description: "Success",
            content: json(schemaRef(`${name}Response`), answerExamples(endpoint)),
          },
          ...errorResponses,
        },
      },
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Authentication and access recovery",
      version: "2",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      description: [
        "Every endpoint is `POST /{company_code}/v2/auth/<operation>` with a JSON body (but `GET` for auth/brand,",
        "which takes none), and answers JSON:",
        '`{"status": "success", ...}` or `{"status": "error", "error_code": "...", "error_message": "...", ...}`.',
        "`error_message` says the code's message to the user in the request's language: the body's `language`",
        "field (any endpoint with a body), then `Accept-Language`, then the company's default language, then English.",
        "A session moves from state to state (spec section 3): each step answers a new `session_token`",
        "and the `session_state` that says which endpoint comes next.",
      ].join("\n"),
    },
    // Relative: the gateway that serves this document (`npm start`: http://127.0.0.1:8080).
    servers: [{ url: "/", description: "The gateway serving this document" }],
    tags: [
      { name: "login", description: "Logging in, and the session" },
      { name: "recovery", description: "Recovering lost access" },
      { name: "sessions", description: "The signed-in user's own sessions (beyond the spec)" },
      { name: "events", description: "The signed-in user's own recent security events (beyond the spec)" },
      { name: "totp", description: "The signed-in user's authenticator app (beyond the spec)" },
      {
        name: "passkeys",
        description: "A login without a login ID, and the signed-in user's passkeys (beyond the spec)",
      },
      { name: "backupcodes", description: "The signed-in user's backup codes (beyond the spec)" },
      {
        name: "brand",
        description: "The company's name, logo and colour, for its login page (beyond the spec)",
      },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key of the company" },
        sessionToken: {
          type: "http",
          scheme: "bearer",
          description: "The `session_token` of the previous step",
        },
      },
    },
  };
}
