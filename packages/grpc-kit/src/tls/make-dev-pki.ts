// Makes (or completes) a private CA and a certificate per holder in a directory:
//   node make-dev-pki.js <dir> <holder>...    (holders: identity, session, ..., gateway, operator, consumer/<product>)
// For compose, whose one-shot `pki` service runs it before the processes start.
import { ensureDevPki, type PkiHolder } from "./dev-pki.js";

const [dir, ...holders] = process.argv.slice(2);
if (!dir || holders.length === 0) {
  process.stderr.write("usage: make-dev-pki <dir> <holder>...\n");
  process.exit(64);
}
await ensureDevPki(dir, holders as PkiHolder[]);
process.stdout.write(`certificates of ${holders.join(", ")} in ${dir}\n`);
