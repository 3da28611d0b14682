// The page's views, made once from the document, and the frame-by-frame draw that reads the
// Demo's state into them. Drawing never changes queue state.

import { EPOCH, formatElapsed } from './clock.js';
import { LaneView, renderCounters } from './lane-view.js';
import { ActorsView } from './actors-view.js';
import { LogView } from './log.js';
import { ChartView } from './chart.js';
import { StoryView } from './story.js';
import { HistoryView } from './history-view.js';
import { $, $input, setAttr, setText } from './dom.js';

/** @import { Demo } from './demo.js' */
/** @import { Lane } from './cards.js' */
/** @import { Timeline } from './timeline.js' */
/** @import { OnAction } from './actors-view.js' */
/** @typedef {ReturnType<typeof createViews>} Views */

/**
 * @param {object} o
 * @param {OnAction} o.onAction a button on an actor's card
 * @param {(messageId: string) => void} o.onSelect a message card was clicked
 */
export function createViews({ onAction, onSelect }) {
  return {
    lane: new LaneView($('lane'), { onSelect }),
    poisonLane: new LaneView($('poison-lane'), { onSelect }),
    extraLane: new LaneView($('extra-lane'), { onSelect }),
    producers: new ActorsView($('producers'), { onAction }),
    consumers: new ActorsView($('consumers'), { onAction }),
    log: new LogView($('log'), { filter: /** @type {HTMLSelectElement} */ ($('log-filter')) }),
    chart: new ChartView($('chart')),
    // The same chart beside the queue, shown where the side column falls below the stage and
    // the scenario is about the chart (style.css): a caption saying "watch the chart" points
    // at one on screen.
    chartInline: new ChartView($('chart-inline')),
    story: new StoryView({
      caption: $('caption'),
      moments: $('moments'),
      narration: $('narration'),
    }),
    history: new HistoryView({
      dialog: /** @type {HTMLDialogElement} */ ($('card-history')),
      title: $('history-title'),
      events: $('history-events'),
      close: $('history-close'),
    }),
  };
}

/**
 * Forgets what the views drew (a scenario was loaded). `keepStory` keeps the narration.
 * @param {Views} views
 */
export function clearViews(views, { keepStory = false } = {}) {
  for (const [name, v] of Object.entries(views)) {
    if (name === 'story' && keepStory) continue;
    if (name === 'history') /** @type {Views['history']} */ (v).close();
    else /** @type {Exclude<typeof v, Views['history']>} */ (v).clear();
  }
}

/**
 * One frame: the clock, the lanes, the actors, the counters, the words, the log and the chart.
 * @param {Views} views
 * @param {Demo} demo
 * @param {Timeline} timeline
 * @param {{ stopped?: boolean }} [options] `stopped`: guided mode's banner is up
 */
export function drawViews(views, demo, timeline, { stopped = false } = {}) {
  const now = demo.clock.now();
  const elapsed = demo.clock.elapsed();
  setText($('clock'), formatElapsed(elapsed, true));
  setAttr($('clock'), 'data-elapsed-ms', elapsed);
  setText($('wallclock'), new Date(now).toISOString().slice(11, 19) + ' UTC');
  drawScrubber(timeline, elapsed);

  const leaving = (/** @type {Lane} */ lane) => demo.departures.filter((d) => d.card.lane === lane);
  views.lane.render(demo.view.main, now, leaving('main'), { stopped });
  views.poisonLane.render(demo.view.poison, now, leaving('poison'), { stopped });
  views.extraLane.render(demo.view.extra, now, leaving('extra'), { stopped });
  // "Empty" only once the last card has finished leaving, never drawn over a departing one.
  $('lane-empty').hidden = views.lane.drawn;
  $('poison-box').hidden = !demo.poisonThreshold && demo.view.poison.length === 0;
  $('extra-box').hidden = !demo.extraQueue;
  setText($('extra-name'), demo.extraQueue ?? '');
  const threshold = $input('poison-threshold');
  if (document.activeElement !== threshold && threshold.value !== String(demo.poisonThreshold))
    threshold.value = String(demo.poisonThreshold);

  views.producers.render(
    demo.actors.filter((a) => a.kind === 'producer'),
    now,
  );
  views.consumers.render(
    demo.actors
      .filter((a) => a.kind !== 'producer')
      .sort((a, b) => Number(b.kind === 'autoscaler') - Number(a.kind === 'autoscaler')),
    now,
  );
  renderCounters($('counters'), demo.counters);
  views.story.render(demo);
  $('narration-empty').hidden = demo.narration.length > 0;
  views.log.render(demo.log);
  views.chart.render(demo.samples, { playing: !demo.clock.paused });
  if (/** @type {HTMLElement} */ ($('chart-inline')).offsetParent)
    views.chartInline.render(demo.samples, { playing: !demo.clock.paused });
  views.history.render(demo);
}

/**
 * @param {Timeline} timeline
 * @param {number} elapsed
 */
function drawScrubber(timeline, elapsed) {
  const scrub = $input('scrub');
  const max = Math.max(elapsed, timeline.reached - EPOCH) / 1000;
  setAttr(scrub, 'max', max.toFixed(1));
  if (document.activeElement !== scrub || !scrub.matches(':active')) {
    const v = (elapsed / 1000).toFixed(1);
    if (scrub.value !== v) scrub.value = v;
  }
  setAttr(scrub, 'aria-valuetext', `${formatElapsed(elapsed)} of ${formatElapsed(max * 1000)}`);
  setAttr(scrub, 'data-reached-ms', Math.round(max * 1000));
}
