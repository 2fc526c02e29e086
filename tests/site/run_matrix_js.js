// Runs the matrix's heldAt (site/assets/javascripts/neuron-compat.js) on an api/matrix.json read from stdin, at
// every release, and prints {release: [[status, hardware...] per held statement] per row} for tests/site.
"use strict";
const path = require("path");
const matrix = require(path.join(__dirname, "..", "..", "site", "assets", "javascripts", "neuron-compat.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const data = JSON.parse(input);
  const out = {};
  data.releases.forEach((release) => {
    out[release] = matrix.heldAt(data, release).map((list) => list.map((h) => [h.status, ...h.hardware]).sort());
  });
  process.stdout.write(JSON.stringify(out));
});
