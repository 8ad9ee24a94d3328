package packbench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// Plot geometry, in SVG user units.
const (
	svgWidth, svgHeight = 640, 400
	plotLeft, plotTop   = 60, 40
	plotRight           = 480 // legend to the right of this
	plotBottom          = 340
)

// strategyColors are assigned in the order of Report.Strategies.
var strategyColors = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"}

// WriteSVG draws RRCE (%) against the window (log2 axis), one polyline
// per strategy, with a legend. It is plain SVG with no script or fonts
// beyond a generic family.
func (r *Report) WriteSVG(w io.Writer) error {
	if len(r.Windows) == 0 {
		return fmt.Errorf("rrce: report has no windows to plot")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, win := range r.Windows {
		lo, hi = min(lo, math.Log2(float64(win))), max(hi, math.Log2(float64(win)))
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	x := func(win int) float64 {
		return plotLeft + (math.Log2(float64(win))-lo)/(hi-lo)*(plotRight-plotLeft)
	}
	y := func(pct float64) float64 { return plotBottom - pct/100*(plotBottom-plotTop) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="14">RRCE (%%) vs context window, %d cases</text>`+"\n", plotLeft, r.Cases)
	for _, pct := range []float64{0, 25, 50, 75, 100} {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", plotLeft, y(pct), plotRight, y(pct))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n", plotLeft-6, y(pct)+4, pct)
	}
	for _, win := range r.Windows {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(win), plotTop, x(win), plotBottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(win), plotBottom+18, win)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n",
		plotLeft, plotTop, plotRight-plotLeft, plotBottom-plotTop)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">window (tokens, log scale)</text>`+"\n", (plotLeft+plotRight)/2, plotBottom+38)
	fmt.Fprintf(&b, `<text x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">RRCE (%%)</text>`+"\n",
		(plotTop+plotBottom)/2, (plotTop+plotBottom)/2)

	for i, st := range r.Strategies {
		color := strategyColors[i%len(strategyColors)]
		var pts []string
		for _, win := range r.Windows {
			v, ok := r.RRCE[st][strconv.Itoa(win)]
			if !ok {
				continue
			}
			pct := 100 * v
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(win), y(pct)))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(win), y(pct), color)
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), color)
		ly := plotTop + 10 + 20*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", plotRight+16, ly, plotRight+40, ly, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", plotRight+46, ly+4, html.EscapeString(st))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
