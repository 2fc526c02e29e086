/* neuron-compat accessibility: the theme wraps Markdown tables in .md-typeset__scrollwrap at run time, a box that
   scrolls sideways but that a keyboard cannot reach. Make each such wrapper (outside the site's own .nc-scroll
   regions, which the templates already make focusable) a named, focusable region. The name is the text of the
   nearest heading before the table, set as an attribute (never parsed as markup). */
(function () {
  "use strict";

  function headingBefore(node) {
    var headings = document.querySelectorAll(".md-content h1, .md-content h2, .md-content h3");
    var name = "";
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) {
        name = headings[i].textContent.replace(/\u00b6/g, "").trim();
      }
    }
    return name;
  }

  function label(wrapper) {
    if (wrapper.hasAttribute("tabindex")) return;
    if (wrapper.closest(".nc-scroll")) return;
    var heading = headingBefore(wrapper);
    wrapper.setAttribute("role", "region");
    wrapper.setAttribute("tabindex", "0");
    wrapper.setAttribute("aria-label", (heading ? heading + ": table" : "Table") + " (scrolls sideways)");
  }

  function labelAll(root) {
    if (root.matches && root.matches(".md-typeset__scrollwrap")) label(root);
    if (root.querySelectorAll) root.querySelectorAll(".md-typeset__scrollwrap").forEach(label);
  }

  function init() {
    labelAll(document);
    new MutationObserver(function (records) {
      records.forEach(function (record) { record.addedNodes.forEach(labelAll); });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
