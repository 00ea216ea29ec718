import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSuite, startSuite } from "@auth/suite";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCompanyCode, demoControlQuestion, demoDisclaimer, demoUsers, seedDemo } from "./demo.js";

const apiKey = "demo-key-for-the-seed-test-0123456789";

describe("the demo seed of npm start", () => {
  let suite: RunningSuite;
  let dataDir: string;
  const post = async (operation: string, body: Record<string, unknown>, token?: string) => {
    const response = await fetch(`${suite.gatewayUrl}/${demoCompanyCode}/v2/auth/${operation}`, {
      method: "POST",
      headers: {
        "x-api-key": apiKey,
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "demo-seed-"));
    // The gateway sees a seed's policy change at once (a start's seed runs before any request).
    suite = await startSuite({
      dataDir,
      logLevel: "error",
      startTimeoutMs: testBudgets.suiteStartMs,
      env: { gateway: { API_KEY_CACHE_SECONDS: "0" } },
    });
    await seedDemo(suite, apiKey, "http://localhost:8081");
    // A second start seeds again over the same data.
    await seedDemo(suite, apiKey, "http://localhost:8081");
  });
  afterAll(async () => {
    await suite?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets the printed login of alice through, with the demo disclaimer", async () => {
    const [alice] = demoUsers;
    const login = await post("login", { login_id: alice.loginName });
    expect(login).toMatchObject({ status: "success", session_state: "checkpassword" });
    const checked = await post(
      "checkpassword",
      { password: alice.password, accept_disclaimers: [demoDisclaimer.code] },
      String(login.session_token),
    );
    expect(checked).toMatchObject({ status: "success", session_state: "authorized" });
  });

  it("gives bob an SMS code and carol a second factor", async () => {
    const [, bob, carol] = demoUsers;
    expect(await post("login", { login_id: bob.loginName })).toMatchObject({ session_state: "checkotp" });
    const login = await post("login", { login_id: carol.loginName });
    const checked = await post(
      "checkpassword",
      { password: carol.password, accept_disclaimers: [demoDisclaimer.code] },
      String(login.session_token),
    );
    expect(checked).toMatchObject({ session_state: "checkotp" });
  });

  it("lets the printed recovery through, with the dev captcha and the demo answer", async () => {
    const started = await post("recovery/recover", {
      login_id: "alice",
      captcha_response: "dev-captcha-pass",
      method: "QUESTION",
    });
    expect(started).toMatchObject({ status: "success", control_question: demoControlQuestion.question });
    const answered = await post(
      "recovery/checkquestion",
      { control_answer: demoControlQuestion.answer },
      String(started.session_token),
    );
    expect(answered).toMatchObject({ session_state: "recovery-setpassword" });
    expect(
      await post("recovery/recover", {
        login_id: "alice",
        captcha_response: "dev-captcha-pass",
        method: "MAIL",
      }),
    ).toMatchObject({
      verification: "MAIL",
    });
  });

  it("asks dave for a new password, with the password rules: no composition rule, 15 characters", async () => {
    const dave = demoUsers[3];
    const login = await post("login", { login_id: dave.loginName });
    const checked = await post(
      "checkpassword",
      { password: dave.password, accept_disclaimers: [demoDisclaimer.code] },
      String(login.session_token),
    );
    expect(checked).toMatchObject({
      session_state: "setpassword",
      password_regex: null,
      password_regex_description: expect.stringMatching(
        /^At least 15 and at most 256 characters\. Not a common/,
      ),
    });
  });

  it("lets a passkey sign in without a login ID, at the login page's host name", async () => {
    const started = await post("passkeys/start", {});
    expect(started).toMatchObject({
      status: "success",
      session_state: "checkpassword",
      passkey_options: { rpId: "localhost" },
    });
  });

  it("points the recovery e-mail at the login page of the latest start", async () => {
    await seedDemo(suite, apiKey, "http://localhost:8099");
    await post("recovery/recover", {
      login_id: "alice",
      captcha_response: "dev-captcha-pass",
      method: "MAIL",
    });
    const lastMail = readFileSync(suite.mailOutboxFile, "utf8").trim().split("\n").at(-1) ?? "";
    expect(lastMail).toContain("http://localhost:8099/recover?token=");
  });
});
