import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SmsProvider } from "@auth/proto/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError } from "./support/api.js";
import { createCompany, createUser } from "./support/fixtures.js";

interface Received {
  authorization: string | undefined;
  body: { to: string; text: string };
}

/** A local server that plays a company's SMS provider; it fails for one number. */
const undeliverable = "+12125550199";
let provider: Server;
let providerUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  provider = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const message = JSON.parse(body) as Received["body"];
    received.push({ authorization: request.headers.authorization, body: message });
    response.writeHead(message.to === undeliverable ? 500 : 202).end();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/messages`;
});
afterAll(async () => {
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
});

describe("SMS through the company's HTTP provider", () => {
  it("delivers the OTP with the company's credentials and wording", async () => {
    const company = await createCompany({
      sms: {
        provider: SmsProvider.HTTP,
        url: providerUrl,
        token: "sms-token",
        account: "",
        sender: "",
        region: "",
        loginTemplate: "ACME code {code}, valid {minutes} min",
      },
    });
    const user = await createUser(company, { password: null });
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expect(login.body.session_state).toBe("checkotp");
    const message = received.find((r) => r.body.to === user.phone);
    expect(message?.authorization).toBe("Bearer sms-token");
    expect(message?.body.text).toMatch(/^ACME code \d{6}, valid 5 min$/);
    const otp = /\d{6}/.exec(message?.body.text ?? "")?.[0];
    const token = String(login.body.session_token);
    const checked = await call(company.code, "checkotp", { apiKey: company.apiKey, token, body: { otp } });
    expect(checked.body.session_state).toBe("authorized");
  });

  it("answers service.unavailable when the provider cannot deliver", async () => {
    const company = await createCompany({
      sms: { provider: SmsProvider.HTTP, url: providerUrl, token: "t", account: "", sender: "", region: "" },
    });
    const user = await createUser(company, { password: null, phone: undeliverable });
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expectError(login, 503, "service.unavailable");
    expect(received.filter((r) => r.body.to === user.phone).length).toBeGreaterThanOrEqual(1);
  });
});
