import { catalogues, translator } from "@auth/i18n";
import { describe, expect, it } from "vitest";
import { type MailContent, renderMail as renderIn } from "./render-mail.js";

const english = translator(catalogues.en);
/** The e-mail with the layout's words in English, as the rules below but the language's need. */
const renderMail = (content: MailContent) => renderIn(content, english);

const link = "https://login.acme.example/recover?token=abc&x=1";
const recovery: MailContent = {
  companyName: "Acme",
  brand: { logoUrl: "https://cdn.acme.example/logo.png", color: "#0b6e4f" },
  subject: "Recover access to your Acme account",
  text: [
    "Someone asked to recover access to your Acme account.",
    "To set a new password, open this link within 30 minutes (it works once):",
    "",
    link,
    "",
    "If you did not ask for this, ignore this message: nothing changes.",
  ].join("\n"),
  action: { label: "setPassword", url: link },
  reason: "recovery",
};
const notice: MailContent = {
  companyName: "Acme",
  brand: undefined,
  subject: "Your Acme password was changed",
  text: "The password of your Acme account was changed at 2026-01-02 03:04 UTC.\n\nIf this was not you, contact your administrator.",
  reason: "notice",
};

/** The HTML without its head, the inbox's preview and the tags: what a reader sees, in order. */
const visible = (html: string) =>
  html
    .replace(/<head>[\s\S]*<\/head>/, "")
    .replace(/<div style="display:none[^>]*>[^<]*<\/div>/, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ");

describe("the text part", () => {
  it("is the wording as given, and the subject is the wording's", () => {
    const mail = renderMail(recovery);
    expect(mail.text).toBe(recovery.text);
    expect(mail.subject).toBe(recovery.subject);
  });
});

describe("the HTML part: every value is escaped", () => {
  it("shows a company name with a script tag as text", () => {
    const { html } = renderMail({ ...notice, companyName: "<script>alert(1)</script> & Co" });
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
  });

  it("shows markup in the subject and paragraphs as text", () => {
    const { html } = renderMail({ ...notice, subject: "<b>bold</b>", text: 'a <img src=x onerror="y">' });
    expect(html).not.toMatch(/<b>|<img src=x/);
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("a &lt;img src=x onerror=&quot;y&quot;&gt;");
  });

  it("keeps a link with quotes inside its attribute", () => {
    const url = 'https://x.example/?a="><script>';
    const { html } = renderMail({
      ...recovery,
      text: `Open:\n\n${url}`,
      action: { label: "setPassword", url },
    });
    expect(html).not.toContain('"><script>');
    expect(html).toContain('href="https://x.example/?a=&quot;&gt;&lt;script&gt;"');
  });
});

describe('the HTML part carries the company\'s brand (docs/decisions.md, "Brand")', () => {
  it("puts the colour on the header and the button, and the logo in the header", () => {
    const { html } = renderMail(recovery);
    expect(html).toMatch(/class="header" style="background:#0b6e4f/);
    expect(html).toMatch(/bgcolor="#0b6e4f"[^>]*>\s*<a\s+href="https:\/\/login\.acme\.example/);
    expect(html).toContain('<img src="https://cdn.acme.example/logo.png" alt="Acme"');
    expect(html).not.toContain("#1f5fbf");
  });

  it("without a brand, takes the colour #1f5fbf and shows the name in place of a logo", () => {
    const { html } = renderMail(notice);
    expect(html).toMatch(/class="header" style="background:#1f5fbf/);
    expect(html).not.toContain("<img");
    expect(visible(html)).toMatch(/^ Acme Your Acme password was changed /);
  });

  it("takes the defaults for a colour that is not #rrggbb and a logo that is not https", () => {
    const { html } = renderMail({
      ...notice,
      brand: { logoUrl: "javascript:alert(1)", color: "red;background:url(https://x.example/)" },
    });
    expect(html).toMatch(/class="header" style="background:#1f5fbf/);
    expect(html).not.toMatch(/<img|javascript:|url\(/);
  });
});

describe("the HTML part shows the wording's paragraphs, the link as a button, and the footer", () => {
  it("shows the paragraphs in order, a line break within one as <br>, the link as a button and as text below it", () => {
    const { html } = renderMail(recovery);
    expect(visible(html)).toContain(
      [
        "Recover access to your Acme account",
        "Someone asked to recover access to your Acme account. To set a new password, open this link within 30 minutes (it works once):",
        "Set a new password",
        "If the button does not work, open this link: https://login.acme.example/recover?token=abc&amp;x=1",
        "If you did not ask for this, ignore this message: nothing changes.",
        "You got this e-mail because someone asked to recover access to your Acme account.",
      ].join(" "),
    );
    expect(html).toContain("your Acme account.<br>To set a new password");
    expect(html.match(/href="https:\/\/login\.acme\.example\/recover\?token=abc&amp;x=1"/g)).toHaveLength(2);
  });

  it("puts the button after a company's paragraph that holds the link within a sentence", () => {
    const text = `Hello,\r\n\r\nto set a new password, follow ${link}\n\tThe team\r\n\r\nBye`;
    const { html } = renderMail({ ...recovery, text });
    expect(visible(html)).toContain(
      "Hello, to set a new password, follow https://login.acme.example/recover?token=abc&amp;x=1 The team Set a new password",
    );
    expect(visible(html)).toMatch(/x=1 Bye You got this e-mail/);
  });

  it("has no button without an action, and a notice's footer", () => {
    const { html } = renderMail(notice);
    expect(html).not.toContain("href=");
    expect(visible(html)).toContain(
      "If this was not you, contact your administrator. You got this e-mail because it concerns the security of your Acme account.",
    );
  });

  it("previews the first paragraph in the inbox, and names the language", () => {
    const { html } = renderMail(notice);
    expect(html).toMatch(/<html lang="en"/);
    expect(html).toMatch(
      /display:none[^>]*>\s*The password of your Acme account was changed at 2026-01-02 03:04 UTC\./,
    );
  });
});

describe("the layout's own words are in the e-mail's language (docs/decisions.md, \"Languages\")", () => {
  it.each([
    [
      "de",
      "Neues Passwort festlegen",
      "Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:",
      "Sie erhalten diese E-Mail, weil jemand angefordert hat, den Zugang zu Ihrem Konto bei Acme wiederherzustellen.",
    ],
    [
      "fr",
      "Définir un nouveau mot de passe",
      "Si le bouton ne fonctionne pas, ouvrez ce lien\u00a0:",
      "Vous recevez cet e-mail parce que quelqu’un a demandé à récupérer l’accès à votre compte Acme.",
    ],
  ] as const)(
    "%s: the lang attribute, the button's label, the line under it and the footer",
    (language, label, hint, footer) => {
      const { html } = renderIn(recovery, translator(catalogues[language]));
      expect(html).toMatch(new RegExp(`<html lang="${language}"`));
      // What a reader sees: a no-break space is a space.
      expect(visible(html)).toContain(` ${label} ${hint.replace(/\s/g, " ")} https://login.acme.example/`);
      expect(visible(html)).toContain(` ${footer} `);
      expect(html).not.toMatch(/Set a new password|If the button|You got this e-mail/);
    },
  );

  it("a notice's footer too", () => {
    const { html } = renderIn(notice, translator(catalogues.de));
    expect(visible(html)).toContain(
      " Sie erhalten diese E-Mail, weil sie die Sicherheit Ihres Kontos bei Acme betrifft. ",
    );
  });

  it("takes the company's own text of a layout's word in that language", () => {
    const companyTexts = [
      { language: "de", namespace: "mail", key: "layout.action.setPassword", text: "Weiter" },
    ];
    const { html } = renderIn(recovery, translator(catalogues.de, { companyTexts }));
    expect(visible(html)).toContain(" Weiter Falls die Schaltfläche");
    expect(visible(renderIn(recovery, translator(catalogues.en, { companyTexts })).html)).toContain(
      " Set a new password If the button",
    );
  });
});
