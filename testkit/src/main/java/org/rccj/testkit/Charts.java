package org.rccj.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** Checks that a written chart is a real one, not an empty or flat picture. */
public final class Charts {
    private Charts() {}

    /** A decoded PNG that is at least w x h, has drawn content (not one flat colour) and several colours. */
    public static BufferedImage assertPng(Path png, int minWidth, int minHeight, int minColours) throws IOException {
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img != null, png + " decodes as an image");
        assertTrue(img.getWidth() >= minWidth && img.getHeight() >= minHeight, png + " is " + img.getWidth() + "x" + img.getHeight());
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
        assertTrue(colours.size() >= minColours, png + ": only " + colours.size() + " colours");
        return img;
    }

    /** An SVG document with content. */
    public static void assertSvg(Path svg) throws IOException {
        String s = Files.readString(svg);
        assertTrue(s.contains("<svg") && s.contains("</svg>"), svg + " is an SVG document");
        assertTrue(s.length() > 2_000, svg + " has content");
    }
}
