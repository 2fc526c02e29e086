/*
 * neuron-compat check, in the browser: what to install. A pure port of src/neuron_compat/views/recommendation.py
 * (same ranking, same fields, same line) over the registry.json the site publishes; check_resolve.js hands it the
 * rows of every release (its candidates). The tables (ranks, hardware order) come from the document's check_tables.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory();
  } else {
    root.NeuronCompatRecommend = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The word of views.at_release's ended cell kind, which the at_release tables carry: an ended row's verdict
  // (resolver.ENDED_STATUS) and the lifecycle of a stack past its end (recommendation.ENDED) are that word.
  var ENDED = "ended";

  function versionKey(version) {
    return version.split(".").map(function (piece) {
      var digits = /^\d+/.exec(piece);
      return digits ? parseInt(digits[0], 10) : -1;
    });
  }

  function compareKeys(x, y) {
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  }

  function compareVersions(a, b) {
    return compareKeys(versionKey(a), versionKey(b));
  }

  function releasesUpTo(registry, newest) {
    var versions = registry.releases.map(function (r) { return r.version; }).sort(compareVersions);
    return versions.filter(function (v) { return compareVersions(v, newest) <= 0; });
  }

  function stackShipped(stack, release) {
    if (stack.since && compareVersions(release, stack.since) < 0) return false;
    return !stack.end_of_support || compareVersions(release, stack.end_of_support) < 0;
  }

  // views.stack_end: the first release without the stack for a workload on a hardware, or null.
  function stackEnd(stack, workload, hardware) {
    var found = stack.end_of_support ? [stack.end_of_support] : [];
    (stack.ends || []).forEach(function (end) {
      if ((!end.workloads.length || end.workloads.indexOf(workload) >= 0) &&
          (!end.hardware.length || end.hardware.indexOf(hardware) >= 0)) found.push(end.release);
    });
    if (!found.length) return null;
    return found.sort(compareVersions)[0];
  }

  function lifecycle(stack, workload, hardware, newest) {
    var end = stackEnd(stack, workload, hardware);
    return end !== null && compareVersions(end, newest) <= 0 ? ENDED : stack.status;
  }

  function releaseOf(registry, version) {
    return registry.releases.filter(function (r) { return r.version === version; })[0];
  }

  function stackVersion(stack, components, release) {
    var targeting = (stack.versions || []).filter(function (v) { return v.neuron === release; });
    if (targeting.length) return targeting[targeting.length - 1].version;
    return Object.prototype.hasOwnProperty.call(components, stack.id) ? components[stack.id] : null;
  }

  function serves(stack, workload, hardware, release) {
    if (stack.workloads.indexOf(workload) < 0 || stack.hardware.indexOf(hardware) < 0) return false;
    var end = stackEnd(stack, workload, hardware);
    return stackShipped(stack, release) && (end === null || compareVersions(release, end) < 0);
  }

  function installFor(registry, T, stack, workload, hardware, release) {
    var components = releaseOf(registry, release).components || {};
    var version = stackVersion(stack, components, release);
    var install = version !== null ? [stack.id + " " + version] : [];
    var notRecorded = version !== null ? [] : [stack.id];
    var names = Object.keys(components);
    if (!names.length) notRecorded.push(T.all_components);
    var byId = {};
    registry.stacks.forEach(function (s) { byId[s.id] = s; });
    names.forEach(function (name) {
      var other = Object.prototype.hasOwnProperty.call(byId, name) ? byId[name] : null;
      if (name === stack.id || (other !== null && !serves(other, workload, hardware, release))) return;
      install.push(name + " " + components[name]);
    });
    return [version, install, notRecorded];
  }

  function rank(T, status, life, release) {
    return [life !== ENDED ? 1 : 0, T.recommended_statuses[status], lifeRank(T, life)].concat(versionKey(release));
  }

  function stackById(registry, id) {
    return registry.stacks.filter(function (s) { return s.id === id; })[0];
  }

  function choiceOf(registry, T, candidate, hardware, life) {
    var stack = stackById(registry, candidate.stack);
    var found = installFor(registry, T, stack, candidate.workload, hardware, candidate.release);
    return {
      stack: stack.id, stack_name: stack.name, release: candidate.release, stack_version: found[0],
      status: candidate.status, lifecycle: life, install: found[1], not_recorded: found[2],
      notes_url: releaseOf(registry, candidate.release).notes_url, caveats: candidate.caveats.slice(),
      sources: candidate.sources.slice(), anchor: candidate.anchor
    };
  }

  function eligible(registry, candidates, hardware, workload) {
    return candidates.filter(function (candidate) {
      if (candidate.workload !== workload || candidate.hardware.indexOf(hardware) < 0) return false;
      var listed = releaseOf(registry, candidate.release).hardware || [];
      if (listed.length && listed.indexOf(hardware) < 0) return false;
      var stack = stackById(registry, candidate.stack);
      if (stack.separate_releases &&
          !stack.versions.some(function (v) { return v.neuron === candidate.release; })) return false;
      return true;
    });
  }

  function ranked(registry, T, found, hardware, workload, newest) {
    var best = {};
    var order = [];
    found.forEach(function (candidate) {
      var life = lifecycle(stackById(registry, candidate.stack), workload, hardware, newest);
      var key = rank(T, candidate.status, life, candidate.release);
      if (!Object.prototype.hasOwnProperty.call(best, candidate.stack)) order.push(candidate.stack);
      else if (compareKeys(key, best[candidate.stack][0]) <= 0) return;
      best[candidate.stack] = [key, candidate, life];
    });
    var items = order.map(function (id) { return best[id]; });
    items.sort(function (a, b) { return compareKeys(b[0], a[0]); });
    return items.map(function (item) { return choiceOf(registry, T, item[1], hardware, item[2]); });
  }

  function lifeRank(T, life) {
    return Object.prototype.hasOwnProperty.call(T.lifecycle_rank, life) ? T.lifecycle_rank[life] : 0;
  }

  function topLifeRank(T) {
    return Math.max.apply(null, Object.keys(T.lifecycle_rank).map(function (k) { return T.lifecycle_rank[k]; }));
  }

  function choiceText(T, choice) {
    var name = choice.stack_version ? choice.stack + " " + choice.stack_version : choice.stack;
    var life = choice.lifecycle && lifeRank(T, choice.lifecycle) < topLifeRank(T) ? ", " + choice.lifecycle + " stack" : "";
    return name + " at Neuron " + choice.release + " (" + choice.status + life + ")";
  }

  function recommendationLine(T, familyName, choice, newest, lastWorked) {
    if (choice.stack === null) return "nothing claims " + familyName + " runs here at any release up to " + newest;
    var parts = [choiceText(T, choice)];
    if (lastWorked !== newest) {
      parts[0] = "no claim holds at " + newest + " (newest with one: " + lastWorked + "); best: " + parts[0];
    }
    if (choice.caveats.length) parts.push(choice.caveats.map(function (c) { return c.message; }).join("; "));
    var install = choice.install.length ? choice.install.join(", ") : "nothing recorded";
    if (choice.not_recorded.length) {
      install += " (" + choice.not_recorded.join(", ") + " not recorded for " + choice.release + ")";
    }
    parts.push("install " + install);
    parts.push("release notes " + choice.notes_url);
    if (choice.sources.length) {
      var more = choice.sources.length - T.sources_in_line;
      parts.push("sources " + choice.sources.slice(0, T.sources_in_line).join(" ") + (more > 0 ? " (+" + more + " more)" : ""));
    }
    return parts.join(" | ");
  }

  function hardwareOf(T, family, workload) {
    var said = {};
    family.support.forEach(function (s) {
      if (s.workload === workload) s.hardware.forEach(function (h) { said[h] = true; });
    });
    return T.hardware_order.filter(function (h) { return said[h]; });
  }

  // recommendation.recommend: per workload and hardware, the best candidate and the next ones.
  function recommend(registry, T, family, candidates, newest, hardware, workloads) {
    var found = [];
    workloads.forEach(function (workload) {
      var where = hardware !== null ? [hardware] : hardwareOf(T, family, workload);
      where.forEach(function (item) {
        var usable = eligible(registry, candidates, item, workload);
        var choices = ranked(registry, T, usable, item, workload, newest);
        var last = null;
        usable.forEach(function (c) { if (last === null || compareVersions(c.release, last) > 0) last = c.release; });
        var choice = choices.length ? choices[0] : {
          stack: null, stack_name: null, release: null, stack_version: null, status: "unknown", lifecycle: null,
          install: [], not_recorded: [], notes_url: null, caveats: [], sources: [], anchor: null
        };
        found.push({
          hardware: item, workload: workload, stack: choice.stack, stack_name: choice.stack_name,
          release: choice.release, stack_version: choice.stack_version, status: choice.status,
          lifecycle: choice.lifecycle, install: choice.install, not_recorded: choice.not_recorded,
          notes_url: choice.notes_url, caveats: choice.caveats, sources: choice.sources, anchor: choice.anchor,
          newest: newest, last_worked: last, line: recommendationLine(T, family.name, choice, newest, last),
          alternatives: choices.slice(1, 1 + T.alternatives)
        });
      });
    });
    return found;
  }

  // resolver.candidates_of: the rows at `release` whose verdict claims the model runs.
  function candidatesOf(T, answers, release) {
    return answers.filter(function (a) {
      return Object.prototype.hasOwnProperty.call(T.recommended_statuses, a.verdict);
    }).map(function (a) {
      return { stack: a.stack, workload: a.workload, hardware: a.hardware.slice(), release: release,
               status: a.verdict, caveats: a.caveats, sources: a.sources, anchor: a.anchor };
    });
  }

  return {
    ENDED: ENDED,
    releasesUpTo: releasesUpTo,
    recommend: recommend,
    candidatesOf: candidatesOf,
    choiceText: choiceText
  };
});
