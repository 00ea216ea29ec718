import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  expectError,
  expectSuccess,
  type TestCompany,
  updateCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const logoUrl = "https://acme.example/logo.svg";
const brandFields = ["company_name", "logo_url", "color", "default_language", "texts"];

/** The company's look for its login page, beyond the spec (docs/api-contract.md, "Brand"). */
describe("GET auth/brand", () => {
  let branded: TestCompany;
  let plain: TestCompany;
  const brandOf = (company: TestCompany, apiKey = company.apiKey) =>
    call(company.code, "brand", { method: "GET", apiKey });

  beforeAll(async () => {
    [branded, plain] = await Promise.all([
      createCompany({ brand: { logoUrl, color: "#7A1F5C" } }),
      createCompany(),
    ]);
  });

  it("answers the company's name, logo and colour from its policy", async () => {
    const response = await brandOf(branded);
    expectSuccess(response, brandFields);
    expect(response.body).toMatchObject({
      company_name: `Test ${branded.code}`,
      logo_url: logoUrl,
      color: "#7a1f5c",
    });
  });

  it("answers the company's default language and its own texts of the page and of the error messages, not those of its SMS or e-mails", async () => {
    const page = { language: "de", namespace: "page", key: "identify.title", text: "Bei Acme anmelden" };
    const error = {
      language: "fr",
      namespace: "errors",
      key: "auth.otp.invalid",
      text: "Ce code ne va pas.",
    };
    const sms = { language: "de", namespace: "sms", key: "login", text: "Ihr Acme-Code: {code}" };
    const speaking = await createCompany({ defaultLanguage: "de", texts: [page, sms, error] });
    const response = await brandOf(speaking);
    expectSuccess(response, brandFields);
    expect(response.body).toMatchObject({ default_language: "de", texts: [page, error] });
  });

  it("answers empty strings, English and no texts for a company that has set no logo, colour, language or text", async () => {
    const response = await brandOf(plain);
    expectSuccess(response, brandFields);
    expect(response.body).toMatchObject({
      company_name: `Test ${plain.code}`,
      logo_url: "",
      color: "",
      default_language: "en",
      texts: [],
    });
  });

  it("may be kept by browsers and proxies for five minutes, for its API key only, and its errors not at all", async () => {
    const kept = await brandOf(branded);
    expect(kept.headers.get("cache-control")).toBe("public, max-age=300");
    expect(kept.headers.get("vary")).toBe("X-API-Key");
    expect((await brandOf(branded, "not-a-key")).headers.get("cache-control")).toBe("no-store");
  });

  it("needs the company's API key", async () => {
    expectError(await call(branded.code, "brand", { method: "GET" }), 401, "auth.apikey.missing");
    expectError(await brandOf(branded, plain.apiKey), 401, "auth.apikey.invalid");
  });

  it("is answered for a suspended company too: it starts nothing", async () => {
    const suspended = await createCompany({ brand: { logoUrl, color: "" } });
    await updateCompany(suspended, { suspended: true });
    const response = await brandOf(suspended);
    expectSuccess(response, brandFields);
    expect(response.body.logo_url).toBe(logoUrl);
  });

  it("takes GET only: another method is request.method.notallowed, with the methods it takes", async () => {
    const response = await call(branded.code, "brand", { apiKey: branded.apiKey, body: {} });
    expectError(response, 405, "request.method.notallowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
