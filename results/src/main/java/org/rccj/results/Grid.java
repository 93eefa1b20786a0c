package org.rccj.results;

import static org.rccj.results.ChartStyle.AXIS;
import static org.rccj.results.ChartStyle.PANEL_TITLE;
import static org.rccj.results.ChartStyle.TITLE;

import de.erichseifert.vectorgraphics2d.Document;
import de.erichseifert.vectorgraphics2d.Processor;
import de.erichseifert.vectorgraphics2d.Processors;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Panels under one title and one legend: {@code columns} charts a row, each keeping its own axis titles
 * (their own legends are hidden), drawn and saved as one picture.
 */
public record Grid(String title, List<Chart<?, ?>> panels, int columns, List<Grid.LegendEntry> legend) {
    static {
        ChartStyle.headless();
    }

    /** An entry of the shared legend: a filled box (bars) or a line with a marker. */
    public record LegendEntry(String name, Color colour, boolean box) {}

    public Grid {
        if (panels.isEmpty()) throw new IllegalArgumentException("no panels to draw");
        if (columns < 1) throw new IllegalArgumentException("columns must be >= 1");
        panels = List.copyOf(panels);
        legend = List.copyOf(legend);
    }

    /** Writes the grid as {@code dir/BASE.png} and {@code dir/BASE.svg}. */
    public Plots.Saved save(Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        Layout l = layout(this);
        Path png = dir.resolve(base + ".png");
        BufferedImage img = new BufferedImage(l.width, l.height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        paint(this, l, g);
        g.dispose();
        ImageIO.write(img, "png", png.toFile());

        Path svg = dir.resolve(base + ".svg");
        VectorGraphics2D vg = new VectorGraphics2D();
        vg.draw(new Rectangle()); // as XChart's encoder does: starts the command sequence with a harmless shape
        paint(this, l, vg);
        Processor p = Processors.get("svg");
        Document doc = p.getDocument(vg.getCommands(), new PageSize(0.0, 0.0, l.width, l.height));
        try (OutputStream os = Files.newOutputStream(svg)) {
            doc.writeTo(os);
        }
        List<String> names = new java.util.ArrayList<>();
        for (LegendEntry e : legend) names.add(e.name());
        SvgText.embed(svg, title, panels, names);
        return new Plots.Saved(png, svg);
    }

    /** Draws the grid onto {@code g} at the size it is saved at, and returns that size. */
    Dimension draw(Graphics2D g) {
        Layout l = layout(this);
        paint(this, l, g);
        return new Dimension(l.width, l.height);
    }

    private record Layout(int width, int height, int cellW, int cellH, int titleH, int legendH, int columns) {}

    private static Layout layout(Grid grid) {
        int cols = Math.min(grid.columns(), grid.panels().size());
        int rows = (grid.panels().size() + cols - 1) / cols;
        int cellW = 0, cellH = 0;
        for (Chart<?, ?> c : grid.panels()) {
            cellW = Math.max(cellW, c.getWidth());
            cellH = Math.max(cellH, c.getHeight());
        }
        // panels are drawn at the cell size: keep a row of them within about 2000 px
        if (cols >= 3) {
            cellW = Math.min(cellW, 660);
            cellH = Math.min(cellH, 480);
        } else if (cols == 2) {
            cellW = Math.min(cellW, 900);
        }
        int legendRows = grid.legend().isEmpty() ? 0 : legendRows(grid.legend(), cellW * cols);
        return new Layout(cellW * cols, 44 + cellH * rows + legendRows * 22 + (legendRows > 0 ? 16 : 0),
                cellW, cellH, 44, legendRows * 22 + (legendRows > 0 ? 16 : 0), cols);
    }

    private static int entryWidth(LegendEntry e) { return 40 + 8 * e.name().length(); }

    private static int legendRows(List<LegendEntry> legend, int width) {
        int rows = 1, x = 20;
        for (LegendEntry e : legend) {
            if (x + entryWidth(e) > width - 20 && x > 20) {
                rows++;
                x = 20;
            }
            x += entryWidth(e);
        }
        return rows;
    }

    private static void paint(Grid grid, Layout l, Graphics2D g) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, l.width, l.height);
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        FontMetrics fm = g.getFontMetrics();
        g.drawString(grid.title(), Math.max(10, (l.width - fm.stringWidth(grid.title())) / 2), 28);
        for (int i = 0; i < grid.panels().size(); i++) {
            Chart<?, ?> c = grid.panels().get(i);
            c.getStyler().setLegendVisible(grid.legend().isEmpty() && c.getStyler().isLegendVisible());
            c.getStyler().setChartTitleFont(PANEL_TITLE);
            Graphics2D cg = (Graphics2D) g.create((i % l.columns) * l.cellW, l.titleH + (i / l.columns) * l.cellH, l.cellW, l.cellH);
            cg.setColor(Color.WHITE);
            cg.fillRect(0, 0, l.cellW, l.cellH);
            c.paint(cg, l.cellW, l.cellH);
            cg.dispose();
        }
        if (grid.legend().isEmpty()) return;
        g.setFont(AXIS);
        int y0 = l.height - l.legendH + 10, x = 20, row = 0;
        for (LegendEntry e : grid.legend()) {
            if (x + entryWidth(e) > l.width - 20 && x > 20) {
                row++;
                x = 20;
            }
            int y = y0 + row * 22;
            g.setColor(e.colour());
            if (e.box()) {
                g.fillRect(x, y + 2, 16, 14);
            } else {
                g.setStroke(new BasicStroke(2.5f));
                g.drawLine(x - 2, y + 9, x + 20, y + 9);
                g.fillOval(x + 4, y + 4, 10, 10);
            }
            g.setColor(Color.BLACK);
            g.drawString(e.name(), x + 26, y + 14);
            x += entryWidth(e);
        }
    }
}
