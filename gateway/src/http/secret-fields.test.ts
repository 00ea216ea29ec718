import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthError } from "@auth/errors";
import { Session, TokenStatus } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument, pathOf } from "../api/openapi.js";
import { createApp } from "../app.js";
import type { Backends } from "../backends.js";
import { CompaniesWithDisclaimers } from "../companies-with-disclaimers.js";
import { stateOfName } from "../endpoint/states.js";
import { tenantCompany } from "../endpoint/tenant-company.testing.js";
import { statesFor } from "../endpoint/transitions.js";
import type { BackendHealth } from "../readiness.js";
import { endpoints } from "../routes.js";
import { CompanyCache } from "./company-cache.js";
import { IdempotentAnswers } from "./idempotency.js";
import { LoginIdTurns } from "./login-id-turns.js";
import { RateLimits } from "./rate-limits.js";

/**
 * docs/api-contract.md, "Requests and responses": a secret field (a password, a code, an answer, a
 * credential) is never empty. An empty one is request.validation.failed (400), answered before the
 * flow calls any service: no budget is spent and no code is burnt. The secret fields are the ones
 * the OpenAPI document marks `format: password`, on every endpoint.
 */

interface PropertySchema {
  format?: string;
  minLength?: number;
}
interface RequestSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}
interface Document {
  paths: Record<
    string,
    {
      post?: {
        requestBody: {
          content: {
            "application/json": { schema: { $ref: string }; examples: Record<string, { value: object }> };
          };
        };
      };
    }
  >;
  components: { schemas: Record<string, RequestSchema> };
}

const document = openApiDocument(endpoints) as unknown as Document;

/** Every secret field of every endpoint, with the rest of a request the endpoint takes. */
const secretFields = endpoints.flatMap((endpoint) => {
  const content = document.paths[pathOf(endpoint.operation)]?.post?.requestBody.content["application/json"];
  const schema = document.components.schemas[content?.schema.$ref.replace("#/components/schemas/", "") ?? ""];
  const properties = Object.entries(schema?.properties ?? {});
  const secrets = new Set(properties.filter(([, p]) => p.format === "password").map(([name]) => name));
  const required = new Set(schema?.required ?? []);
  const example = (content?.examples.request?.value ?? {}) as Record<string, unknown>;
  // The example without the secrets it may leave out: another one might make the body wrong
  // (checkotp takes exactly one of otp and backup_code).
  const rest = Object.fromEntries(
    Object.entries(example).filter(([name]) => !secrets.has(name) || required.has(name)),
  );
  return [...secrets].map((field) => ({
    endpoint,
    field,
    schema: Object.fromEntries(properties)[field],
    body: (value: string) => ({ ...rest, [field]: value }),
    filled: String(example[field] ?? "123456"),
  }));
});

const apiKey = "key-of-acme";
const company = tenantCompany({}, "acme");
const health = { notServing: async () => [], close: () => {} } as unknown as BackendHealth;

/**
 * The services as the pipeline needs them (the API key, a session in the state of the token given)
 * and nothing more: every other call is written down in `calls`, and fails as a service that is down.
 */
function recordingServices(sessions: Map<string, Session>, calls: string[]): Backends {
  const pipeline: Record<string, Record<string, (request: never) => Promise<unknown>>> = {
    identity: {
      authenticateApiKey: async ({ apiKey: key }: { apiKey: string }) => {
        if (key !== apiKey) throw new AuthError("auth.apikey.invalid");
        return { company };
      },
    },
    session: {
      introspectSession: async ({ sessionToken }: { sessionToken: string }) => {
        const session = sessions.get(sessionToken);
        return session ? { status: TokenStatus.ACTIVE, session } : { status: TokenStatus.INVALID };
      },
    },
  };
  const service = (name: string) =>
    new Proxy(
      {},
      {
        get: (_, method: string) =>
          pipeline[name]?.[method] ??
          (async () => {
            calls.push(`${name}.${method}`);
            throw new AuthError("service.unavailable", { detail: "a service the test does not give" });
          }),
      },
    );
  return Object.fromEntries(
    ["identity", "session", "otp", "recovery", "disclaimer", "audit"].map((name) => [name, service(name)]),
  ) as unknown as Backends;
}

describe("an empty secret field", () => {
  const sessions = new Map<string, Session>();
  const calls: string[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const backends = recordingServices(sessions, calls);
    const logger = createLogger("secret-fields-test", "silent");
    const app = createApp({
      backends,
      // Never started: a request refused for its body reaches no disclaimers.
      companiesWithDisclaimers: new CompaniesWithDisclaimers(backends.disclaimer, 0, logger),
      requestDeadlineMs: 10_000,
      rateLimits: new RateLimits({ perAddressPerMinute: 10_000, perLoginIdPerMinute: 10_000 }, undefined),
      turns: new LoginIdTurns(2),
      companies: new CompanyCache(0),
      answers: IdempotentAnswers.on(undefined),
      logger,
      health,
      trustProxy: [],
    });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A token of a live session in the first state the operation takes a token in. */
  function tokenFor(operation: (typeof endpoints)[number]["operation"]): string {
    const [state] = [...statesFor(operation)];
    const token = randomUUID().replaceAll("-", "");
    sessions.set(token, {
      ...Session.fromJSON({}),
      sessionId: randomUUID(),
      companyId: company.id,
      userId: randomUUID(),
      loginId: "alice",
      state: stateOfName[state === "any" || state === undefined ? "authorized" : state],
    });
    return token;
  }

  /** Posts the body; the answer, and the calls the request made beyond the pipeline's. */
  async function post(endpoint: (typeof endpoints)[number], body: object) {
    calls.length = 0;
    const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": apiKey };
    if (endpoint.takesToken) headers.authorization = `Bearer ${tokenFor(endpoint.operation)}`;
    const response = await fetch(`${url}/acme/v2/auth/${endpoint.operation}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json(), calls: [...calls] };
  }

  it("is found on the spec's secret fields: the document marks them, and gives them minLength 1", () => {
    const found = secretFields.map(({ endpoint, field, schema }) => ({
      at: `${endpoint.operation} ${field}`,
      minLength: schema?.minLength,
    }));
    expect(found).toEqual(
      expect.arrayContaining(
        [
          "checkpassword password",
          "checkotp otp",
          "checkotp backup_code",
          "setpassword new_password",
          "checkcredentials password",
          "recovery/checkotp otp",
          "recovery/checkquestion control_answer",
        ].map((at) => ({ at, minLength: 1 })),
      ),
    );
    expect(found.every(({ minLength }) => minLength === 1)).toBe(true);
  });

  describe.each(
    secretFields.map((secret) => [`${secret.endpoint.operation} ${secret.field}`, secret] as const),
  )("%s", (_, { endpoint, body, filled }) => {
    it("is request.validation.failed (400), with no service called beyond the API key and the token", async () => {
      const answer = await post(endpoint, body(""));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status: "error",
        error_code: "request.validation.failed",
        error_message: expect.any(String),
      });
      expect(answer.calls).toEqual([]);
    });

    it("where the same request with the secret given goes on to the services", async () => {
      const answer = await post(endpoint, body(filled));
      expect(answer.body).toEqual({
        status: "error",
        error_code: "service.unavailable",
        error_message: expect.any(String),
      });
      expect(answer.calls.length).toBeGreaterThan(0);
    });
  });
});
