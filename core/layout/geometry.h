#pragma once
// Plain geometry shared by the layout and its consumers (SVG export, graph view).
// Doubles in scene pixels; y grows downward, as in SVG and QGraphicsScene.
namespace irscope::layout {

struct Point {
    double x = 0, y = 0;
    bool operator==(const Point&) const = default;
};

struct Rect {
    double x = 0, y = 0, width = 0, height = 0;  // top-left corner and size

    double left() const { return x; }
    double right() const { return x + width; }
    double top() const { return y; }
    double bottom() const { return y + height; }
    Point center() const { return {x + width / 2, y + height / 2}; }
    bool intersects(const Rect& o) const { return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom(); }
    bool contains(Point p) const { return p.x >= x && p.x <= right() && p.y >= y && p.y <= bottom(); }
    bool operator==(const Rect&) const = default;
};

}  // namespace irscope::layout
