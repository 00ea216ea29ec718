import { describe, expect, it } from "vitest";
import { recoveryLink, recoveryMail } from "./links.js";

describe("recovery link", () => {
  it("is the company's page with the token added to its query", () => {
    expect(recoveryLink("https://acme.example/recover?lang=en", "t0k")).toBe(
      "https://acme.example/recover?lang=en&token=t0k",
    );
  });
});

const acme = { name: "Acme", brand: { logoUrl: "", color: "#0b6e4f" } };

describe("recovery e-mail", () => {
  it("names the company, the link and its lifetime", () => {
    const mail = recoveryMail("c1", "ann@example.com", acme, "https://x/?token=1");
    expect(mail.subject).toBe("Recover access to your Acme account");
    expect(mail.text).toContain("https://x/?token=1");
    expect(mail.text).toContain("30 minutes");
  });

  it("is HTML too, in the company's colour, with the link as a button and as text below it", () => {
    const { html } = recoveryMail("c1", "ann@example.com", acme, "https://x/?token=1");
    expect(html).toMatch(
      /<a\s+href="https:\/\/x\/\?token=1"[^>]*background:#0b6e4f[^>]*>\s*Set a new password\s*<\/a>/,
    );
    expect(html).toMatch(/<a class="link" href="https:\/\/x\/\?token=1"[^>]*>https:\/\/x\/\?token=1<\/a>/);
    expect(html).toContain("within 30 minutes (it works once):");
  });

  it("uses the company's templates", () => {
    const mail = recoveryMail("c1", "a@example.com", acme, "https://x/?token=1", {
      smtpUrl: "",
      from: "",
      subjectTemplate: "{company}: reset",
      bodyTemplate: "Go to {link} ({minutes} min, {unknown})",
    });
    expect(mail).toMatchObject({
      subject: "Acme: reset",
      text: "Go to https://x/?token=1 (30 min, {unknown})",
    });
    expect(mail.html).toContain("Go to https://x/?token=1 (30 min, {unknown})");
    expect(mail.html).toMatch(/<a\s+href="https:\/\/x\/\?token=1"/);
  });
});
