// Compiles the e-mails' layout from MJML to HTML as the package builds (docs/decisions.md, "Brand"),
// so that no process runs MJML: src/render-mail.ts fills dist/mail-layout.html at each send.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import mjml2html from "mjml";

const source = new URL("../src/mail-layout.mjml", import.meta.url);
const target = new URL("../dist/mail-layout.html", import.meta.url);

const { html, errors } = await mjml2html(await readFile(source, "utf8"), {
  validationLevel: "soft",
  keepComments: false,
  // MJML links Google's font of a family it knows (Roboto) by default: an e-mail fetches nothing but the logo.
  fonts: {},
});
// The colour is a Mustache tag until a send fills it, which MJML's check of a colour's form cannot
// know: that is the one complaint let through.
const faults = errors.filter((error) => !/invalid value: \{\{\w+\}\} for type Color/.test(error.message));
if (faults.length > 0) {
  for (const fault of faults) console.error(fault.formattedMessage);
  process.exit(1);
}
await mkdir(new URL(".", target), { recursive: true });
await writeFile(target, html);
