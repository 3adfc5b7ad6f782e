// Copy buttons (part of the docs page's script) beside the code samples and the console's answer: the button
// copies its box's text and says so in its own label, which a screen reader announces (aria-live).
import { element } from "./form.js";

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (an insecure origin, a refused permission): the older command still copies a selection.
    const box = element("textarea", { "aria-hidden": "true", style: "position:fixed;opacity:0" });
    box.value = text;
    document.body.append(box);
    box.select();
    document.execCommand("copy");
    box.remove();
  }
}

/** A button that copies the text of `box` (a pre), put before it. */
export function copyButton(box, label = "Copy") {
  const button = element("button", { type: "button", class: "copy", "aria-live": "polite" }, [label]);
  button.addEventListener("click", async () => {
    await copy(box.textContent ?? "");
    button.textContent = "Copied";
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
  box.before(button);
  return button;
}
