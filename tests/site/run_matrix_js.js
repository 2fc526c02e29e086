// Runs the matrix's heldAt (site/assets/javascripts/neuron-compat.js) on an api/matrix.json read from stdin, at
// every release, and prints {release: [{kind, release, held_through, held: [[status, hardware...] per held statement]} per row]} for tests/site.
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
    const states = matrix.statesAt(data, release);
    out[release] = matrix.heldAt(data, release).map((list, i) => ({
      kind: states[i].kind, release: states[i].release || null, held_through: states[i].held_through || null,
      held: list.map((h) => [h.status, ...h.hardware]).sort(),
    }));
  });
  process.stdout.write(JSON.stringify(out));
});
