import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { createCompany, createUser } from "./support/fixtures.js";
import { linkToken } from "./support/outbox.js";

const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";

// The recovery rules are tested in process (gateway/src/flow-tests/recovery.test.ts); here the
// delivery through a company's own SMTP server.
describe("recovery by e-mail over real SMTP", () => {
  let smtp: SMTPServer;
  const messages: Array<{ to: string[]; data: string }> = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on("end", () => {
          messages.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  /** The text of a message as the SMTP server received it, quoted-printable undone. */
  const decoded = (data: string) =>
    data
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

  it("delivers the link through the company's SMTP server, as text and as HTML of its brand; following it lets the user set a new password", async () => {
    const port = (smtp.server.address() as AddressInfo).port;
    const company = await createCompany({
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase },
      mail: {
        smtpUrl: `smtp://mailer:secret@127.0.0.1:${port}`,
        from: "Acme <no-reply@acme.example>",
        subjectTemplate: "{company}: recover your access",
      },
      brand: { logoUrl: "https://acme.example/logo.png", color: "#0b6e4f" },
    });
    const user = await createUser(company);
    const started = await call(company.code, "recovery/recover", {
      apiKey: company.apiKey,
      body: { login_id: user.email, captcha_response: captcha, method: "MAIL" },
    });
    expect(started.body.verification).toBe("MAIL");
    // The link's e-mail, sent before the answer; the notice that the recovery started goes to the
    // same address through the same server, in the background.
    const subject = `Subject: Test ${company.code}: recover your access`;
    const message = messages.find((m) => m.to.includes(user.email) && m.data.includes(subject));
    expect(message?.data).toContain(subject);
    const data = decoded(message?.data ?? "");
    const token = linkToken(data);
    const html = data.slice(data.indexOf("Content-Type: text/html"));
    expect(html).toContain(`href="${linkBase}?token=${token}"`);
    expect(html).toContain('<img src="https://acme.example/logo.png"');
    expect(html).toContain("background:#0b6e4f");
    const session = await call(company.code, "recovery/checklink", {
      apiKey: company.apiKey,
      body: { token },
    });
    const set = await call(company.code, "setpassword", {
      apiKey: company.apiKey,
      token: String(session.body.session_token),
      body: { new_password: "from-the-link-1" },
    });
    expect(set.body).toEqual({ status: "success" });
    const login = await call(company.code, "checkcredentials", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName, password: "from-the-link-1" },
    });
    expect(login.body.session_state).toBe("authorized");
  });
});
