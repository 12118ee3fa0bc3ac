/** One bar: its label and its two parts, input and output tokens. */
export interface Bar {
  label: string;
  input: number;
  output: number;
}

const ROW = 22;
const LABEL_WIDTH = 140;
const WIDTH = 640;

/**
 * Horizontal bars of tokens, input then output, one row per bar, with the total at its end; an
 * image to assistive technology, named by `title` with the figures in its description.
 */
export function BarChart({ title, bars }: { title: string; bars: readonly Bar[] }) {
  const largest = Math.max(1, ...bars.map((bar) => bar.input + bar.output));
  const scale = (WIDTH - LABEL_WIDTH - 90) / largest;
  const summary = bars.map((bar) => `${bar.label}: ${bar.input} in, ${bar.output} out`).join('; ');
  return (
    <figure class="chart">
      <svg
        role="img"
        aria-label={`${title}. ${summary}`}
        viewBox={`0 0 ${WIDTH} ${Math.max(1, bars.length) * ROW}`}
        width={WIDTH}
        height={Math.max(1, bars.length) * ROW}
      >
        {bars.map((bar, index) => {
          const y = index * ROW;
          const inputWidth = bar.input * scale;
          return (
            <g key={bar.label}>
              <text class="label" x={LABEL_WIDTH - 8} y={y + 15} text-anchor="end">
                {bar.label}
              </text>
              <rect class="input" x={LABEL_WIDTH} y={y + 4} width={inputWidth} height={ROW - 8} />
              <rect class="output" x={LABEL_WIDTH + inputWidth} y={y + 4} width={bar.output * scale} height={ROW - 8} />
              <text class="value" x={LABEL_WIDTH + (bar.input + bar.output) * scale + 6} y={y + 15}>
                {bar.input + bar.output}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        {title} — <span class="swatch input" /> input <span class="swatch output" /> output
      </figcaption>
    </figure>
  );
}
