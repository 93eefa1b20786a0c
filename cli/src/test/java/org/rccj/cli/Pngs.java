package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rccj.testkit.Charts;

/** Checks that a PNG is a real chart (decodes, has a useful size, is not blank and has several colours) with its SVG. */
final class Pngs {
    private Pngs() {}

    static void assertChart(Path png) throws IOException {
        assertTrue(Files.isRegularFile(png), png + " exists");
        Charts.assertPng(png, 600, 400, 4);
        Charts.assertSvg(png.resolveSibling(png.getFileName().toString().replace(".png", ".svg")));
    }
}
