import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CaptchaProvider } from "@auth/proto/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  startLogin,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

/** A local server that plays Cloudflare's siteverify: the response "human" passes. */
let siteverify: Server;
const received: Array<Record<string, string>> = [];

beforeAll(async () => {
  siteverify = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const form = Object.fromEntries(new URLSearchParams(body));
    received.push(form);
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ success: form.response === "human" }));
  });
  await new Promise<void>((resolve) => siteverify.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  siteverify.closeAllConnections();
  await new Promise((resolve) => siteverify.close(resolve));
});

describe("captcha with the company's provider (Turnstile)", () => {
  it("is verified at the provider with the company's secret, through the gateway", async () => {
    const verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/turnstile/v0/siteverify`;
    const company = await createCompany({
      captcha: { provider: CaptchaProvider.TURNSTILE, secret: "turnstile-secret", verifyUrl },
    });
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    const checkpassword = (body: Record<string, unknown>) =>
      call(company.code, "checkpassword", { apiKey: company.apiKey, token, body });
    for (let i = 0; i < 3; i += 1) await checkpassword({ password: "wrong" });

    expectError(
      await checkpassword({ password: user.password, captcha_response: "robot" }),
      403,
      "auth.captcha.invalid",
      ["captcha_required"],
    );
    expect(
      (await checkpassword({ password: user.password, captcha_response: "human" })).body.session_state,
    ).toBe("authorized");
    expect(received.map((form) => [form.secret, form.response])).toEqual([
      ["turnstile-secret", "robot"],
      ["turnstile-secret", "human"],
    ]);
    expect(received[0]?.remoteip).toMatch(/127\.0\.0\.1/);
  });
});
