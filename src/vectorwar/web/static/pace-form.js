// The lobby's choice of a table's pace (docs/web.md, "Deadlines and clocks"): none, a deadline for
// every decision, or a clock for each side; which computer plays a side that runs out of time, and
// after how many missed deadlines it keeps it; and when its player is reminded.

const $ = (id) => document.getElementById(id);

const HOUR = 3600;
const DAY = 86400;

//: The paces offered, by the value of their option in the list.
export const PACES = {
  none: null,
  "deadline-10m": { kind: "deadline", seconds: 600 },
  "deadline-1h": { kind: "deadline", seconds: HOUR },
  "deadline-1d": { kind: "deadline", seconds: DAY },
  "deadline-3d": { kind: "deadline", seconds: 3 * DAY },
  "clock-1h": { kind: "clock", seconds: HOUR, increment: 60 },
  "clock-7d": { kind: "clock", seconds: 7 * DAY, increment: DAY },
};

//: Reminders offered before each deadline, in seconds (0: none).
const REMINDERS = { "10 minutes": 600, "1 hour": HOUR, "6 hours": 6 * HOUR, "1 day": DAY };

/** The computer players a late side may go to: the system's, the greedy one first when there is one. */
export function fillPaceBots(system) {
  const select = $("pace-bot");
  const bots = (system && system.bots) || [];
  select.replaceChildren(...bots.map((b) => new Option(b, b)));
  if (bots.includes("greedy")) select.value = "greedy";
}

/** Only the reminders that come before the chosen pace's time make sense. */
function fillReminders() {
  const pace = PACES[$("pace").value];
  const select = $("pace-remind");
  const keep = select.value;
  const fitting = Object.entries(REMINDERS).filter(([, s]) => pace && s < pace.seconds);
  select.replaceChildren(new Option("no reminder", "0"), ...fitting.map(([label, s]) => new Option(`${label} before`, String(s))));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  $("pace-details").hidden = !pace;
}

/** The pace for POST /api/games, or null for none. */
export function chosenPace() {
  const pace = PACES[$("pace").value];
  if (!pace) return null;
  return {
    ...pace,
    bot: $("pace-bot").value || "greedy",
    remind_before: Number($("pace-remind").value || 0),
    misses: Number($("pace-misses").value || 0),
  };
}

export function setupPaceForm() {
  $("pace").addEventListener("change", fillReminders);
  fillReminders();
}
