import { type ErrorCode, errorCodes } from "@auth/errors";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Endpoint } from "../endpoint/define.js";
import type { Operation } from "../endpoint/transitions.js";
import { endpoints } from "../routes.js";
import { errorAnswers } from "./endpoint-errors.js";
import { openApiDocument, pathOf } from "./openapi.js";

interface Schema {
  $ref?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: string[];
}
type Examples = Record<string, { value: Record<string, unknown> }>;
interface Response {
  headers?: Record<string, { required: boolean }>;
  content: { "application/json": { schema: Schema; examples?: Examples } };
}
interface Operation3 {
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: {
    required: boolean;
    content: { "application/json": { schema: Schema; examples?: Examples } };
  };
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, { post?: Operation3; get?: Operation3 }>;
  components: { schemas: Record<string, Schema> };
}

const document = openApiDocument(endpoints) as unknown as Document;

/** The document's operation of the endpoint, under the method it is called with. */
function documented(operation: Operation): Operation3 {
  const method = endpoints.find((endpoint) => endpoint.operation === operation)?.method ?? "POST";
  const operationObject = document.paths[pathOf(operation)]?.[method === "GET" ? "get" : "post"];
  if (!operationObject) throw new Error(`no ${method} ${pathOf(operation)}`);
  return operationObject;
}

function resolve(schema: Schema): Schema {
  const id = schema.$ref?.replace("#/components/schemas/", "");
  return id === undefined ? schema : (document.components.schemas[id] ?? {});
}

/** The error codes a documented response of the operation names, by status. */
function documentedErrors(operation: Operation): Map<number, ErrorCode[]> {
  const statuses = new Map<number, ErrorCode[]>();
  for (const [status, response] of Object.entries(documented(operation).responses)) {
    if (status === "200") continue;
    const schema = response.content["application/json"].schema;
    const codes = (schema.anyOf ?? [schema]).flatMap((variant) => variant.properties?.error_code?.enum ?? []);
    statuses.set(Number(status), codes as ErrorCode[]);
  }
  return statuses;
}

const documentedCodes = (operation: Operation) => [...documentedErrors(operation).values()].flat();

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument(endpoints));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("passes Redocly's recommended rules without a problem, examples checked against their schemas", async () => {
    const config = await createConfig({
      extends: ["recommended"],
      rules: { "no-invalid-media-type-examples": { severity: "error", allowAdditionalProperties: false } },
    });
    const problems = await lintFromString({
      source: JSON.stringify(openApiDocument(endpoints)),
      absoluteRef: "openapi.json",
      config,
    });
    expect(problems.map((p) => `${p.ruleId} ${p.message} ${p.location[0]?.pointer ?? ""}`)).toEqual([]);
  });

  it("names the gateway that serves it as its server", () => {
    expect(openApiDocument(endpoints).servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("has a path for every route of the gateway, and no other", () => {
    expect(Object.keys(document.paths).sort()).toEqual(endpoints.map((e) => pathOf(e.operation)).sort());
  });

  describe.each(
    endpoints.map((endpoint): [string, Operation, Endpoint] => [
      endpoint.method,
      endpoint.operation,
      endpoint,
    ]),
  )("%s /{company_code}/v2/auth/%s", (method, operation, endpoint) => {
    it(`takes ${method === "GET" ? "no body" : "the body the endpoint validates requests with"}`, () => {
      const { requestBody } = documented(operation);
      if (method === "GET") {
        expect(requestBody).toBeUndefined();
        return;
      }
      const { $schema: _, ...body } = z.toJSONSchema(endpoint.body, {
        target: "draft-2020-12",
        io: "input",
      });
      expect(resolve(requestBody?.content["application/json"].schema ?? {})).toEqual(body);
      expect(requestBody?.required).toBe(!endpoint.body.safeParse({}).success);
    });

    it.skipIf(method === "GET")("takes the language the client asks for in its body, optional", () => {
      const schema = resolve(documented(operation).requestBody?.content["application/json"].schema ?? {});
      expect(schema.properties?.language).toMatchObject({ type: "string", maxLength: 35 });
      expect(schema.required ?? []).not.toContain("language");
    });

    it("shows a request the endpoint accepts, a success answer of each outcome and each error code", () => {
      const request = documented(operation).requestBody?.content["application/json"].examples ?? {};
      expect(Object.values(request)).toHaveLength(method === "GET" ? 0 : 1);
      for (const { value } of Object.values(request))
        expect(endpoint.body.safeParse(value).success).toBe(true);
      const answers = Object.values(
        documented(operation).responses["200"]?.content["application/json"].examples ?? {},
      );
      expect(answers.length).toBeGreaterThanOrEqual(
        Math.max(1, endpoint.responses.def.type === "union" ? 2 : 1),
      );
      for (const { value } of answers) expect(endpoint.responses.safeParse(value).error).toBeUndefined();
      for (const [status, codes] of documentedErrors(operation)) {
        const examples = documented(operation).responses[status]?.content["application/json"].examples ?? {};
        expect(Object.keys(examples).sort(), String(status)).toEqual([...codes].sort());
      }
    });

    it(`needs the API key${endpoint.takesToken ? " and the session token" : ""}`, () => {
      const required = endpoint.takesToken ? ["apiKey", "sessionToken"] : ["apiKey"];
      expect(documented(operation).security.map((requirement) => Object.keys(requirement).sort())).toEqual([
        required,
      ]);
    });

    it("lists every error it answers, each under its status in the error table", () => {
      const documented = documentedErrors(operation);
      for (const { code, status } of errorAnswers(endpoint)) expect(documented.get(status)).toContain(code);
      for (const [status, codes] of documented) {
        for (const code of codes) {
          // A weak password, or an Idempotency-Key used before with another body.
          const unprocessable =
            (operation === "setpassword" || endpoint.idempotent) && code === "request.validation.failed";
          expect([errorCodes[code].http, ...(unprocessable ? [422] : [])], code).toContain(status);
        }
      }
    });

    it(`takes Accept-Language, X-Device-Id${endpoint.idempotent ? " and Idempotency-Key" : ""} as headers`, () => {
      const headers = (documented(operation).parameters ?? []).filter(
        (parameter) => parameter.in === "header",
      );
      expect(headers.map((parameter) => parameter.name)).toEqual([
        "Accept-Language",
        "X-Device-Id",
        ...(endpoint.idempotent ? ["Idempotency-Key"] : []),
      ]);
    });

    it("may answer service.unavailable (503) and internal.error (500)", () => {
      expect(documentedErrors(operation).get(503)).toEqual(["service.unavailable"]);
      expect(documentedErrors(operation).get(500)).toEqual(["internal.error"]);
    });
  });

  it.each(endpoints.map((endpoint) => endpoint.operation))(
    "documents the rate limit of %s, as every endpoint is limited per client address: request.ratelimit.exceeded (429) with Retry-After",
    (operation) => {
      expect(documentedErrors(operation).get(429)).toEqual(["request.ratelimit.exceeded"]);
      expect(documented(operation).responses[429]?.headers?.["Retry-After"]?.required).toBe(true);
    },
  );

  it("documents Retry-After where an endpoint answers auth.restricted (a lock-out)", () => {
    expect(documented("login").responses[403]?.headers?.["Retry-After"]?.required).toBe(false);
  });

  it("answers a too weak new password on setpassword with 422 (spec 4.5 rule 3)", () => {
    expect(documentedErrors("setpassword").get(422)).toEqual(["request.validation.failed"]);
  });
});

const apiKey: ErrorCode[] = ["auth.apikey.missing", "auth.apikey.invalid"];
const header: ErrorCode[] = ["auth.header.missing", "auth.header.invalid"];
const token: ErrorCode[] = ["auth.token.invalid", "auth.token.expired"];
const userStatus: ErrorCode[] = ["auth.user.restricted", "auth.user.closed", "auth.user.denied"];
const withToken: ErrorCode[] = [...apiKey, ...header, ...token, "auth.session.invalid"];

describe("the error codes of spec section 4 in the document", () => {
  it.each<[Operation, ErrorCode[]]>([
    [
      "login",
      [...apiKey, "auth.loginid.notfound", ...userStatus, "auth.restricted", "request.validation.failed"],
    ],
    [
      "checkpassword",
      [
        ...withToken,
        ...userStatus,
        "auth.captcha.missing",
        "auth.captcha.invalid",
        "auth.password.invalid",
        "auth.disclaimer.invalid",
        "auth.restricted",
        "request.validation.failed",
      ],
    ],
    [
      "checkotp",
      [
        ...withToken,
        ...userStatus,
        "auth.otp.invalid",
        "auth.backupcode.invalid",
        "auth.disclaimer.invalid",
        "auth.restricted",
        "request.validation.failed",
      ],
    ],
    ["renewotp", [...withToken, ...userStatus, "request.validation.failed"]],
    // The spec's auth.password.invalid is never answered: a weak password is request.validation.failed.
    ["setpassword", [...withToken, ...userStatus, "request.validation.failed"]],
    [
      "checkcredentials",
      [
        ...apiKey,
        "auth.captcha.missing",
        "auth.captcha.invalid",
        "auth.credentials.invalid",
        "auth.disclaimer.invalid",
        ...userStatus,
        "auth.restricted",
        "request.validation.failed",
      ],
    ],
    // Without the spec's header and token codes: auth/oauth takes no Authorization header
    // (docs/api-contract.md, "OAuth").
    [
      "oauth",
      [...apiKey, "auth.oauth.notfound", "auth.oauth.failed", "request.validation.failed", ...userStatus],
    ],
    [
      "acceptdisclaimers",
      [
        ...withToken,
        ...userStatus,
        "auth.disclaimer.invalid",
        "auth.restricted",
        "request.validation.failed",
      ],
    ],
    // Without the spec's auth.session.invalid: logout takes a token in any state.
    ["logout", [...apiKey, ...header, ...token]],
    [
      "recovery/recover",
      [
        ...apiKey,
        "auth.loginid.notfound",
        "auth.captcha.invalid",
        "recovery.method.restricted",
        "recovery.phone.notset",
        "recovery.email.notset",
        "recovery.question.notset",
        ...userStatus,
        "request.validation.failed",
      ],
    ],
    ["recovery/checkotp", [...withToken, "auth.otp.invalid", ...userStatus, "request.validation.failed"]],
    ["recovery/renewotp", [...withToken, ...userStatus, "request.validation.failed"]],
    [
      "recovery/checkquestion",
      [...withToken, "auth.controlanswer.invalid", ...userStatus, "request.validation.failed"],
    ],
    // docs/api-contract.md, "Recovery": a used or unknown link is auth.token.invalid, an old one
    // auth.token.expired.
    ["recovery/checklink", [...apiKey, ...token, ...userStatus, "request.validation.failed"]],
  ])("%s lists the codes the spec gives it", (operation, codes) => {
    expect(documentedCodes(operation)).toEqual(expect.arrayContaining(codes));
  });
});
