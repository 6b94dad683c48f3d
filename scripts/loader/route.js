// Which module serves a link: "whole" (ratelimit-full, the whole page), "frame" (ratelimit-frame)
// or "page" (the page's first module), from the link's query (`location.search`).
// Printed from src/present/share/route.rs, where `Module::of` is the same decision in Rust:
// change that file and run `make loader-route`, do not edit this one.
const route = (search) => {
  const query = new URLSearchParams(search);
  const embed = query.get("embed") === "1";
  // A multi-node link, as `cluster::presets::is_cluster` and `LinkView` read it: the first modules
  // draw one server.
  if (query.get("view") === "cluster" || Number(query.get("nodes")) > 1 || (query.has("store") && query.get("store") !== "local")) return "whole";
  // A frame's Compare all card (`show=compare`): a frame's module draws one server's cards.
  if (embed && (query.get("show") || "").split(",").includes("compare")) return "whole";
  // The page's Compare all (`view=compare`).
  if (!embed && query.get("view") === "compare") return "whole";
  // A link to a product model (`algo=nginx` and the like) or to the leaky bucket's queue: neither
  // first module's capabilities have their models (`present::modules`). Any `algo` that is not a
  // textbook algorithm's name is one of these (or unknown, which the whole page explains), so a
  // product added to the registry needs nothing here.
  if ((query.has("algo") && !["token_bucket", "gcra", "fixed_window", "sliding_window", "sliding_log"].includes(query.get("algo")))) return "whole";
  // A page link to a moment (`t=`: an embed's "Open in the playground"), which the whole page opens
  // on.
  if (!embed && query.has("t")) return "whole";
  // The learner's tour (`tour=path&step=N`): its steps run a cluster as well as one server, and the
  // whole page draws the tour.
  if (!embed && query.has("tour")) return "whole";
  return embed ? "frame" : "page";
};
