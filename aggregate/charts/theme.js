// How every chart looks: one vega-lite config, sized and lettered to be read at 1280 px wide, in
// the README's column (about 830 px on GitHub: a chart is at most WIDTH px wide, never scaled down).
// Colours: blue for faster, orange for slower, grey for too noisy to tell (readable by the colour-blind:
// the verdict is also in the table and in the alt text, never in colour alone).

/** The widest a chart is drawn, in px. */
export const WIDTH = 820;

export const VERDICT = {
  domain: ['faster', 'slower', 'too noisy to tell'],
  range: ['#0969da', '#bc4c00', '#8c959f'],
};

/** vega-lite config shared by every chart. */
export const CONFIG = {
  aria: false, // no per-mark ARIA attributes: the chart's alt text (README) and <title> say what it shows
  background: 'white',
  font: 'Helvetica, Arial, sans-serif',
  padding: 8,
  title: { fontSize: 16, fontWeight: 'bold', anchor: 'start', subtitleFontSize: 12, subtitleColor: '#444', offset: 10 },
  axis: {
    labelFontSize: 12,
    titleFontSize: 12,
    titleFontWeight: 'normal',
    titleColor: '#333',
    labelColor: '#333',
    gridColor: '#eaeaea',
    tickColor: '#999',
    domainColor: '#999',
    labelLimit: 240,
  },
  header: { labelFontSize: 13, labelFontWeight: 'bold', labelColor: '#222', titleFontSize: 13 },
  legend: { labelFontSize: 12, titleFontSize: 12, orient: 'top', symbolSize: 80, labelLimit: 400, titleLimit: 400 },
  view: { stroke: '#d0d7de' },
  facet: { spacing: 18 },
  concat: { spacing: 18 },
};
