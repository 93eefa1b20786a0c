package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** Checks that a PNG is a real chart: decodes, has a useful size, is not blank and has several colours. */
final class Pngs {
    private Pngs() {}

    static void assertChart(Path png) throws IOException {
        assertTrue(Files.isRegularFile(png), png + " exists");
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img != null, png + " decodes as an image");
        assertTrue(img.getWidth() >= 600 && img.getHeight() >= 400, png + " is " + img.getWidth() + "x" + img.getHeight());
        int background = img.getRGB(0, 0);
        long drawn = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int c = img.getRGB(x, y);
                if (c != background) drawn++;
                colours.add(c);
            }
        }
        double share = (double) drawn / ((long) img.getWidth() * img.getHeight());
        assertTrue(share > 0.01, png + ": only " + share + " of the pixels differ from the background");
        assertTrue(colours.size() >= 4, png + ": only " + colours.size() + " colours");
        Path svg = png.resolveSibling(png.getFileName().toString().replace(".png", ".svg"));
        String text = Files.readString(svg);
        assertTrue(text.contains("<svg") && text.length() > 2_000, svg + " is an SVG with content");
    }
}
