package org.rccj.testkit;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The text and structure of a figure as its SVG file holds them (the {@code rcc:figure} metadata RCC-J writes next
 * to the drawn outlines): title, panels with axis titles and series of points, legend entries.
 */
public record SvgFigure(String title, String svgTitle, List<Panel> panels, List<String> legend) {
    static final String NS = "https://rcc-j/figure";

    /** A point: x (category or number as written), y, 95% CI half-width (NaN: none). */
    public record Point(String x, double y, double err) {}

    /** A panel: title, axis titles, stacked (bar charts), series by name. */
    public record Panel(String title, String xAxis, String yAxis, boolean stacked, Map<String, List<Point>> series) {
        /** For stacked bars: each category's sum over the series, in category order. */
        public Map<String, Double> barTotals() {
            Map<String, Double> out = new LinkedHashMap<>();
            for (List<Point> pts : series.values()) for (Point p : pts) out.merge(p.x(), p.y(), Double::sum);
            return out;
        }

        /** The categories (x values) of the first series. */
        public List<String> categories() {
            List<String> out = new ArrayList<>();
            if (!series.isEmpty()) for (Point p : series.values().iterator().next()) out.add(p.x());
            return out;
        }
    }

    /** Reads {@code svg}. */
    public static SvgFigure read(Path svg) throws IOException {
        String text = Files.readString(svg);
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // the SVG DTD: never fetched
            Document d = f.newDocumentBuilder().parse(new InputSource(new StringReader(text)));
            NodeList titles = d.getElementsByTagNameNS("*", "title");
            String svgTitle = titles.getLength() == 0 ? null : titles.item(0).getTextContent();
            NodeList figs = d.getElementsByTagNameNS(NS, "figure");
            if (figs.getLength() != 1) throw new IOException(svg + ": no rcc:figure metadata");
            Element fig = (Element) figs.item(0);
            List<Panel> panels = new ArrayList<>();
            NodeList ps = fig.getElementsByTagNameNS(NS, "panel");
            for (int i = 0; i < ps.getLength(); i++) {
                Element p = (Element) ps.item(i);
                Map<String, List<Point>> series = new LinkedHashMap<>();
                NodeList ss = p.getElementsByTagNameNS(NS, "series");
                for (int j = 0; j < ss.getLength(); j++) {
                    Element s = (Element) ss.item(j);
                    List<Point> pts = new ArrayList<>();
                    NodeList qs = s.getElementsByTagNameNS(NS, "point");
                    for (int k = 0; k < qs.getLength(); k++) {
                        Element q = (Element) qs.item(k);
                        pts.add(new Point(q.getAttribute("x"), Double.parseDouble(q.getAttribute("y")),
                                q.hasAttribute("err") ? Double.parseDouble(q.getAttribute("err")) : Double.NaN));
                    }
                    series.put(s.getAttribute("name"), pts);
                }
                panels.add(new Panel(p.getAttribute("title"), p.getAttribute("x-axis"), p.getAttribute("y-axis"),
                        "true".equals(p.getAttribute("stacked")), series));
            }
            List<String> legend = new ArrayList<>();
            NodeList ls = fig.getElementsByTagNameNS(NS, "legend");
            for (int i = 0; i < ls.getLength(); i++) legend.add(((Element) ls.item(i)).getAttribute("name"));
            return new SvgFigure(fig.getAttribute("title"), svgTitle, panels, legend);
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IOException(svg + ": not an XML document: " + e.getMessage(), e);
        }
    }
}
