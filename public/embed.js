/*
 * Switchboard chat widget: <script src="https://switchboard.example/embed.js" data-widget="cw_…" data-token="sbw_…" async></script>
 * Inserts the widget's frame after the script tag (or into the element named by data-target).
 * The token travels in the frame URL's fragment, which is never sent to a server.
 */
(function () {
  var script = document.currentScript;
  if (!script) return;
  var widget = script.getAttribute("data-widget");
  var token = script.getAttribute("data-token");
  if (!widget || !token) {
    console.error("Switchboard widget: data-widget and data-token are required on the script tag.");
    return;
  }
  var base = new URL(script.src).origin;
  var frame = document.createElement("iframe");
  frame.src = base + "/embed/" + encodeURIComponent(widget) + "#token=" + encodeURIComponent(token);
  frame.title = script.getAttribute("data-title") || "Chat";
  frame.setAttribute("data-switchboard-widget", widget);
  frame.style.width = script.getAttribute("data-width") || "380px";
  frame.style.height = script.getAttribute("data-height") || "560px";
  frame.style.border = "1px solid #ccc";
  frame.style.borderRadius = "8px";
  var target = script.getAttribute("data-target");
  var host = target ? document.querySelector(target) : null;
  if (host) host.appendChild(frame);
  else script.parentNode.insertBefore(frame, script.nextSibling);
})();
