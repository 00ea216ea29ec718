import { measureRelayCosts, type RelayCostOptions } from "./relay-cost.js";

// Started by measureRelayCostsApart with its options as the one argument; answers on stdout.
const options = JSON.parse(process.argv[2] ?? "{}") as RelayCostOptions;
process.stdout.write(JSON.stringify(await measureRelayCosts(options)));
