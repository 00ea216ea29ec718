import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { SmtpMailSender } from "./smtp.js";

interface Delivered {
  from: string;
  to: string[];
  data: string;
  user?: string;
}

let server: SMTPServer | undefined;

/** A real SMTP server on loopback that keeps what it receives. */
async function smtpServer(
  options: { rejectWith?: number } = {},
): Promise<{ port: number; delivered: Delivered[] }> {
  const delivered: Delivered[] = [];
  server = new SMTPServer({
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
        if (options.rejectWith) {
          callback(Object.assign(new Error("mailbox unavailable"), { responseCode: options.rejectWith }));
          return;
        }
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.server.address() as AddressInfo).port, delivered };
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const message = {
  companyId: "c1",
  to: "ann@example.com",
  subject: "Recover access",
  text: "Open https://x/?token=abc",
  html: '<p>Open <a href="https://x/?token=abc">the link</a></p>',
};

describe("SMTP mail sender", () => {
  it("delivers the message with credentials to a real SMTP server", async () => {
    const { port, delivered } = await smtpServer();
    const sender = new SmtpMailSender({
      url: `smtp://mailer:secret@127.0.0.1:${port}`,
      from: "Recovery <no-reply@example.com>",
      timeoutMs: 2_000,
    });
    await sender.send(message);
    sender.close();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.from).toBe("no-reply@example.com");
    expect(delivered[0]?.to).toEqual(["ann@example.com"]);
    expect(delivered[0]?.user).toBe("mailer");
    expect(delivered[0]?.data).toContain("Subject: Recover access");
    expect(delivered[0]?.data).toContain("https://x/?token=abc");
  });

  it("sends the text and the HTML as alternatives of one message", async () => {
    const { port, delivered } = await smtpServer();
    const sender = new SmtpMailSender({
      url: `smtp://127.0.0.1:${port}`,
      from: "a@example.com",
      timeoutMs: 2_000,
    });
    await sender.send(message);
    sender.close();
    const data = delivered[0]?.data ?? "";
    expect(data).toMatch(/Content-Type: multipart\/alternative/);
    const plain = data.indexOf("Content-Type: text/plain");
    const html = data.indexOf("Content-Type: text/html");
    // RFC 2046 5.1.4: the last part is the preferred one, so the HTML comes after the text.
    expect(plain).toBeGreaterThan(-1);
    expect(html).toBeGreaterThan(plain);
    expect(data.slice(html)).toContain(message.html);
  });

  it("fails clearly when the server refuses the message", async () => {
    const { port } = await smtpServer({ rejectWith: 550 });
    const sender = new SmtpMailSender({
      url: `smtp://127.0.0.1:${port}`,
      from: "a@example.com",
      timeoutMs: 2_000,
    });
    const error = (await sender.send(message).catch((e) => e)) as AuthError;
    sender.close();
    expect(error.code).toBe("service.unavailable");
  });

  it("fails clearly when no server answers", async () => {
    const sender = new SmtpMailSender({ url: "smtp://127.0.0.1:1", from: "a@example.com", timeoutMs: 1_000 });
    const error = (await sender.send(message).catch((e) => e)) as AuthError;
    sender.close();
    expect(error.code).toBe("service.unavailable");
  });
});
