import type { ErrorCode } from "@auth/errors";
import { catalogues, type Language, languages } from "@auth/i18n";
import type { ApiResponse } from "@auth/testing/api";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  startLogin,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

/** The language whose message of the answer's code its error_message is. */
function answeredIn(response: ApiResponse): Language | undefined {
  const code = response.body.error_code as ErrorCode;
  return languages.find(
    (language) => catalogues[language].messages.errors[code] === response.body.error_message,
  );
}

interface Asking {
  /** The body's `language` field; none when absent. */
  language?: unknown;
  acceptLanguage?: string;
}

/** auth/login of a login ID nobody has (auth.loginid.notfound), asking for a language as told. */
function loginOfNobody(
  company: TestCompany,
  { language, acceptLanguage }: Asking = {},
  apiKey = company.apiKey,
) {
  return call(company.code, "login", {
    apiKey,
    body: { login_id: "nobody-here", ...(language === undefined ? {} : { language }) },
    headers: acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage },
  });
}

describe("the language of a request (docs/decisions.md, Languages)", () => {
  let company: TestCompany;
  let speaksFrench: TestCompany;
  beforeAll(async () => {
    [company, speaksFrench] = await Promise.all([createCompany(), createCompany({ defaultLanguage: "fr" })]);
  });

  it("is the body's language field, before Accept-Language and the company's default", async () => {
    expect(answeredIn(await loginOfNobody(speaksFrench, { language: "de", acceptLanguage: "en" }))).toBe(
      "de",
    );
  });

  it("is then Accept-Language's first language the suite speaks by q-value, a regional tag taking its language", async () => {
    const acceptLanguage = "en;q=0.5, es, fr-CH;q=0.9, de;q=0.7";
    expect(answeredIn(await loginOfNobody(company, { acceptLanguage }))).toBe("fr");
  });

  it("leaves out of Accept-Language a language refused with q=0", async () => {
    expect(answeredIn(await loginOfNobody(company, { acceptLanguage: "de;q=0, fr;q=0.1" }))).toBe("fr");
    expect(answeredIn(await loginOfNobody(company, { acceptLanguage: "de;q=0, *;q=0.5" }))).toBe("en");
  });

  it.each([
    ["a language the suite does not speak", "ja"],
    ["no tag at all", "not a tag"],
    ["an empty one", ""],
  ])("passes over a field of %s, and is not refused for it", async (_, language) => {
    expect(answeredIn(await loginOfNobody(company, { language, acceptLanguage: "de" }))).toBe("de");
  });

  it("is the company's default language when the request names none the suite speaks", async () => {
    expect(answeredIn(await loginOfNobody(speaksFrench, { language: "ja", acceptLanguage: "es, it" }))).toBe(
      "fr",
    );
  });

  it("is English when neither the request nor the company names one", async () => {
    expect(answeredIn(await loginOfNobody(company))).toBe("en");
  });

  it.each([
    ["a number", 49],
    ["null", null],
    ["longer than 35 characters", `de-${"x".repeat(33)}`],
  ])("refuses a field that is %s: request.validation.failed", async (_, language) => {
    expectError(await loginOfNobody(company, { language }), 400, "request.validation.failed");
  });

  it("is taken in the body of an endpoint that reads no other field", async () => {
    const user = await createUser(company, { password: null });
    const token = await startLogin(company, user.loginName);
    const answer = await call(company.code, "renewotp", {
      apiKey: company.apiKey,
      token,
      body: { language: "fr" },
    });
    expectError(answer, 429, "request.ratelimit.exceeded");
    expect(answeredIn(answer)).toBe("fr");
  });
});

describe("error_message", () => {
  let company: TestCompany;
  const ownWords = "Diese Kennung ist bei uns nicht bekannt.";
  beforeAll(async () => {
    company = await createCompany({
      defaultLanguage: "fr",
      texts: [{ language: "de", namespace: "errors", key: "auth.loginid.notfound", text: ownWords }],
    });
  });

  it("is the code's message in the request's language", async () => {
    const answer = await loginOfNobody(company, { language: "fr" });
    expectError(answer, 404, "auth.loginid.notfound");
    expect(answer.body.error_message).toBe(catalogues.fr.messages.errors["auth.loginid.notfound"]);
  });

  it("is the company's own text of the message in its language, and the suite's message in the others", async () => {
    expect((await loginOfNobody(company, { language: "de" })).body.error_message).toBe(ownWords);
    expect((await loginOfNobody(company, { language: "en" })).body.error_message).toBe(
      catalogues.en.messages.errors["auth.loginid.notfound"],
    );
  });

  it("refusing a body, is in the language its field asks for", async () => {
    const answer = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: 7, language: "de" },
    });
    expectError(answer, 400, "request.validation.failed");
    expect(answeredIn(answer)).toBe("de");
  });

  it("before the body is read (the API key, the token), is in Accept-Language's language: the field is not read yet", async () => {
    const answer = await call(company.code, "renewotp", {
      apiKey: company.apiKey,
      token: "made-up",
      body: { language: "de" },
      headers: { "accept-language": "en" },
    });
    expectError(answer, 401, "auth.token.invalid");
    expect(answeredIn(answer)).toBe("en");
  });

  it("before the company is known, is in the request's language without the company's default or texts", async () => {
    expect(answeredIn(await loginOfNobody(company, {}, "not-a-key"))).toBe("en");
    const missing = await call(company.code, "login", {
      body: { login_id: "nobody-here" },
      headers: { "accept-language": "de" },
    });
    expectError(missing, 401, "auth.apikey.missing");
    expect(answeredIn(missing)).toBe("de");
  });
});
