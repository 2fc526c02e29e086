// Runs the site's check port (site/assets/javascripts/check_resolve.js, which reads configs with check_config.js)
// on cases read from stdin (JSON: {registry, cases: [{name, config, options}]}) and prints
// [{name, verdict} | {name, error}] so tests/check can compare it with `neuron-compat check --json`
// (the verdict as the page shows it: checkDocument, with the exit code the command would give).
"use strict";
const path = require("path");
const check = require(path.join(__dirname, "..", "..", "site", "assets", "javascripts", "check_resolve.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { registry, cases } = JSON.parse(input);
  const results = cases.map(({ name, config, options }) => {
    try {
      return { name, verdict: check.checkDocument(check.checkConfig(config, registry, options || {})) };
    } catch (error) {
      return { name, error: error.message };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
