// Runs the site's check port (site/assets/javascripts/check_resolve.js, which reads configs with check_config.js, and
// check_fit.js) on cases read from stdin (JSON: {registry, cases: [{name, config, options}]}) and prints
// [{name, verdict} | {name, error}] so tests/check can compare it with `neuron-compat check --json`
// (the verdict as the page shows it: checkDocument, with the exit code the command would give, and its `fit`).
// As the command does, the fit options are checked first, then the config is read and resolved, then fit runs.
"use strict";
const path = require("path");
const scripts = path.join(__dirname, "..", "..", "site", "assets", "javascripts");
const check = require(path.join(scripts, "check_resolve.js"));
const fit = require(path.join(scripts, "check_fit.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { registry, cases } = JSON.parse(input);
  const results = cases.map(({ name, config, options }) => {
    try {
      fit.useTables(registry);
      fit.checkFitOptions(options || {}, registry.instances);
      const verdict = check.checkConfig(config, registry, options || {});
      const document = check.checkDocument(verdict);
      document.fit = fit.fitDocument(config, registry, options || {}, verdict.model.kind === "diffusers");
      return { name, verdict: document };
    } catch (error) {
      return { name, error: error.message };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
