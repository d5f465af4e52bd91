// localmem ui: the one script. A form with data-confirm asks before it is sent
// (forgetting and removing cannot be undone). No inline script anywhere: the
// Content-Security-Policy allows only this file.
"use strict";
document.addEventListener("submit", function (event) {
  var question = event.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
