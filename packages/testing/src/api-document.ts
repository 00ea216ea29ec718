import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { expect } from "vitest";

/** An answer of the gateway's (its status, headers and JSON body). */
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** An answer of the gateway to `METHOD /{company}/v2/auth/{operation}`. */
export interface Answer extends ApiResponse {
  operation: string;
  method: string;
}

/** A success with exactly these fields besides `status`. */
export function expectSuccess(response: ApiResponse, fields: readonly string[]): void {
  expect(response.body.status, JSON.stringify(response.body)).toBe("success");
  expect(response.status).toBe(200);
  expect(Object.keys(response.body).sort()).toEqual(["status", ...fields].sort());
}

/** An error with this HTTP status and code, and exactly these fields besides the envelope (status, error_code, error_message). */
export function expectError(
  response: ApiResponse,
  status: number,
  code: string,
  fields: readonly string[] = [],
): void {
  expect(response.body.error_code, JSON.stringify(response.body)).toBe(code);
  expect(response.body.status).toBe("error");
  expect(response.status).toBe(status);
  expect(Object.keys(response.body).sort()).toEqual(
    ["error_code", "error_message", "status", ...fields].sort(),
  );
}

interface ResponseObject {
  headers?: Record<string, { required?: boolean }>;
}

/** The methods of the document's operations. */
type Method = "get" | "post";

interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, { responses: Record<string, ResponseObject> }>>>;
}

/** A JSON pointer token, as it goes in a URI fragment. */
const token = (name: string) => encodeURIComponent(name.replaceAll("~", "~0").replaceAll("/", "~1"));

/** The gateway's OpenAPI document, as it judges answers. */
export class ApiDocument {
  readonly #ajv = new Ajv2020({ allErrors: true });
  readonly #validators = new Map<string, ValidateFunction>();

  private constructor(private readonly document: OpenApiDocument) {
    // The schemas are judged within the document, whose own fields (paths, ...) are no keywords.
    this.#ajv.addVocabulary(Object.keys(document));
    this.#ajv.addSchema(document, "openapi.json");
  }

  /** The document the gateway serves at /openapi.json. */
  static async served(gatewayUrl: string): Promise<ApiDocument> {
    return new ApiDocument((await (await fetch(`${gatewayUrl}/openapi.json`)).json()) as OpenApiDocument);
  }

  /** What the document says is wrong with an answer; nothing for an answer it describes. */
  problemsOf(answer: Answer): string[] {
    const what = `${answer.method} ${answer.operation} ${answer.status} ${JSON.stringify(answer.body)}`;
    const path = `/{company_code}/v2/auth/${answer.operation}`;
    const method = answer.method.toLowerCase() as Method;
    const operations = this.document.paths[path];
    const responses = operations?.[method]?.responses;
    if (!responses) {
      // A path the document has not, or a method it has not there: the gateway refuses both.
      const refusal = operations ? "request.method.notallowed" : "request.route.notfound";
      return answer.body.error_code === refusal ? [] : [`${what}: no such operation in the document`];
    }
    const response = responses[answer.status];
    if (!response) return [`${what}: status not in the document`];
    const missingHeaders = Object.entries(response.headers ?? {})
      .filter(([name, header]) => header.required && !answer.headers.has(name))
      .map(([name]) => `${what}: no ${name} header`);
    const validate = this.#validator(path, method, answer.status);
    if (validate(answer.body)) return missingHeaders;
    return [...missingHeaders, `${what}: ${this.#ajv.errorsText(validate.errors)}`];
  }

  #validator(path: string, method: Method, status: number): ValidateFunction {
    const ref = `openapi.json#/paths/${token(path)}/${method}/responses/${status}/content/${token("application/json")}/schema`;
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: ref });
      this.#validators.set(ref, validate);
    }
    return validate;
  }
}

/** How a test posts to `/{company}/v2/auth/{operation}` of a gateway. */
export type Caller = (
  code: string,
  operation: string,
  options: { apiKey?: string; token?: string; body?: unknown },
) => Promise<ApiResponse>;

/** A company as a test calls it. */
export interface Tenant {
  code: string;
  apiKey: string;
}

/** The first steps of a login, through this caller. */
export function loginSteps(call: Caller) {
  /** auth/login, expecting a session token. */
  async function startLogin(company: Tenant, loginId: string): Promise<string> {
    const response = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: loginId },
    });
    expect(response.body.status, JSON.stringify(response.body)).toBe("success");
    return String(response.body.session_token);
  }

  /** auth/login then auth/checkpassword with the right password. */
  async function passwordStep(
    company: Tenant,
    user: { loginName: string; password: string | undefined },
    extra: Record<string, unknown> = {},
  ): Promise<ApiResponse> {
    const token = await startLogin(company, user.loginName);
    return call(company.code, "checkpassword", {
      apiKey: company.apiKey,
      token,
      body: { password: user.password, ...extra },
    });
  }

  return { startLogin, passwordStep };
}
