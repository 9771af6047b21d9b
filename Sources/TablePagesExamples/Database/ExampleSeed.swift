import TableStore

/// The data a new examples database starts with, inserted with the same SQL on either store.
enum ExampleSeed {
    /// Inserts the seed data unless the database already has products: a restarted server must
    /// show what people changed, not the seed again.
    static func seedIfEmpty(_ db: any SQLSession) throws {
        guard try db.row("SELECT count(*) FROM product")?.int(0) == 0 else { return }
        // Ids are left to the database: a fresh table numbers them 1, 2, … in this order.
        for product in products {
            try db.execute(
                "INSERT INTO product (name, category, priceCents, stock, summary) VALUES (?, ?, ?, ?, ?)",
                [.text(product.name), .text(product.category), .integer(product.priceCents), .integer(product.stock), .text(product.summary)]
            )
        }
        for (position, title) in todos.enumerated() {
            try db.execute("INSERT INTO todo (title, isDone, position) VALUES (?, ?, ?)", [.text(title), .bool(position < 2), .integer(position)])
        }
        try seedPeople(db)
        for image in galleryImages {
            try db.execute("INSERT INTO galleryImage (title, file, photographer) VALUES (?, ?, ?)", [.text(image.title), .text(image.file), .text(image.photographer)])
        }
        try seedDestination(db)
    }

    /// An INSERT … RETURNING id that returned nothing.
    private struct NoID: Error, CustomStringConvertible {
        let statement: String
        var description: String { "no id came back from \(statement)" }
    }

    /// Runs an INSERT … RETURNING id and returns the new row's id.
    private static func insert(_ db: any SQLSession, _ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        guard let id = try db.row(sql + " RETURNING id", arguments)?.int64(0) else {
            throw NoID(statement: sql)
        }
        return id
    }

    static let products: [Product] = {
        let catalogue: [(String, [(String, Int, String)])] = [
            ("Coffee", [
                ("Espresso beans, 1 kg", 2450, "Dark roast from Minas Gerais"), ("Filter blend, 500 g", 1290, "Bright, fruity, for pour-over"),
                ("Decaf Colombia, 250 g", 890, "Swiss-water decaffeinated"), ("Cold brew pack", 1590, "Six coarse-ground filter bags"),
                ("Single origin Ethiopia, 250 g", 1150, "Yirgacheffe, washed"), ("Ristretto capsules ×20", 790, "Compatible with most machines"),
            ]),
            ("Tea", [
                ("Sencha, 100 g", 990, "Steamed green tea from Shizuoka"), ("Earl Grey, 250 g", 850, "Black tea with bergamot"),
                ("Rooibos vanilla, 200 g", 720, "Caffeine-free, naturally sweet"), ("Matcha ceremonial, 30 g", 2290, "Stone-ground tencha"),
                ("Darjeeling first flush, 100 g", 1690, "Castleton estate"), ("Chamomile flowers, 80 g", 590, "Whole Egyptian blossoms"),
            ]),
            ("Brewing", [
                ("Pour-over dripper", 2490, "Ceramic, size 02"), ("Gooseneck kettle", 5900, "Temperature control to the degree"),
                ("Burr grinder", 12900, "40 grind settings"), ("French press, 1 l", 3490, "Double-walled steel"),
                ("Paper filters ×100", 490, "Unbleached"), ("Digital scale", 2990, "0.1 g resolution with timer"),
            ]),
            ("Cups", [
                ("Espresso cups ×2", 1890, "Porcelain, 80 ml"), ("Travel mug", 2290, "Leak-proof, 350 ml"),
                ("Glass tea pot", 3290, "With steel infuser, 800 ml"), ("Latte bowl", 1490, "Hand-glazed stoneware"),
                ("Cappuccino set", 3990, "Two cups and saucers"), ("Double-wall glasses ×2", 2190, "Borosilicate, 250 ml"),
            ]),
            ("Snacks", [
                ("Almond biscotti", 590, "Twice-baked, 200 g"), ("Dark chocolate 70 %", 390, "Single bar, 100 g"),
                ("Stroopwafels ×8", 450, "Caramel syrup waffles"), ("Salted caramels", 690, "Handmade, 150 g"),
                ("Oat cookies", 490, "With raisins, 250 g"), ("Candied ginger", 550, "Crystallised, 120 g"),
            ]),
        ]
        let rows = catalogue.flatMap { category, items in items.map { (category, $0) } }
        return rows.enumerated().map { offset, row in
            let (category, item) = row
            return Product(id: Int64(offset + 1), name: item.0, category: category, priceCents: item.1, stock: 2 + (offset * 7) % 40, summary: item.2)
        }
    }()

    static let todos = [
        "Book the train to Ljubljana", "Renew the passport", "Buy a rain jacket", "Water the plants",
        "Write the release notes", "Call the plumber", "Back up the laptop", "Send the birthday card",
    ]

    private static func seedPeople(_ db: any SQLSession) throws {
        let people: [(String, String, String, [(String, String, String, Double, String)])] = [
            ("Ada Moreau", "ada@example.com", "Lyon", [("Biscuit", "Dog", "Beagle", 11.2, "biscuit.svg")]),
            ("Bram de Vries", "bram@example.com", "Utrecht", [("Luna", "Cat", "British Shorthair", 4.6, "luna.svg"),
                                                              ("Pepper", "Dog", "Dachshund", 7.9, "pepper.svg")]),
            ("Chiara Rossi", "chiara@example.com", "Bologna", [("Mochi", "Cat", "Scottish Fold", 3.8, "mochi.svg")]),
            ("Dmitri Volkov", "dmitri@example.com", "Tallinn", []),
            ("Elif Kaya", "elif@example.com", "Izmir", [("Ziggy", "Rabbit", "Holland Lop", 1.7, "ziggy.svg"),
                                                      ("Olive", "Dog", "Border Collie", 17.5, "olive.svg")]),
            ("Finn Olsen", "finn@example.com", "Bergen", []),
        ]
        for (name, email, city, pets) in people {
            let userID = try insert(db, #"INSERT INTO "user" (name, email, city) VALUES (?, ?, ?)"#, [.text(name), .text(email), .text(city)])
            for pet in pets {
                try db.execute(
                    "INSERT INTO pet (name, species, breed, weightKilograms, avatar, userId) VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(pet.0), .text(pet.1), .text(pet.2), .real(pet.3), .text(pet.4), .integer(userID)]
                )
            }
        }
    }

    static let galleryImages: [GalleryImage] = [
        ("Harbour at dawn", "harbour-dawn.svg", "Noor Haddad"), ("Alpine lake", "alpine-lake.svg", "Jonas Berg"),
        ("Desert dunes", "desert-dunes.svg", "Amina Diallo"), ("Pine forest", "pine-forest.svg", "Sven Lund"),
        ("City at night", "city-night.svg", "Mei Tanaka"), ("Lavender field", "lavender-field.svg", "Lucie Bernard"),
        ("Glacier bay", "glacier-bay.svg", "Kai Andersen"), ("Autumn road", "autumn-road.svg", "Rosa Martín"),
        ("Coral reef", "coral-reef.svg", "Tomás Silva"), ("Canyon rim", "canyon-rim.svg", "Grace Walker"),
        ("Tea terraces", "tea-terraces.svg", "Arjun Rao"), ("Northern lights", "northern-lights.svg", "Ingrid Holm"),
    ].map { GalleryImage(id: nil, title: $0.0, file: $0.1, photographer: $0.2) }

    private static func seedDestination(_ db: any SQLSession) throws {
        let bled = Destination(
            id: nil, name: "Lake Bled", location: "Upper Carniola, Slovenia",
            summary: "A glacial lake below the Julian Alps with a church on its only island, a castle on the cliff above, and cream cake in every café.",
            photo: "/public/images/destination/photo.svg", map: "/public/images/destination/map.svg",
            latitude: 46.3636, longitude: 14.0938, address: "Cesta svobode 10, 4260 Bled, Slovenia",
            website: "https://www.bled.si", phone: "+386 4 574 11 22", rating: 4.7, shownReviews: 5
        )
        let destinationID = try insert(
            db,
            """
            INSERT INTO destination (name, location, summary, photo, map, latitude, longitude, address, website, phone, rating, shownReviews)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(bled.name), .text(bled.location), .text(bled.summary), .text(bled.photo), .text(bled.map), .real(bled.latitude),
                .real(bled.longitude), .text(bled.address), .text(bled.website), .text(bled.phone), .real(bled.rating), .integer(bled.shownReviews),
            ]
        )
        let authors = ["Hannah", "Luka", "Priya", "Mateo", "Sofia", "Yuki", "Oskar", "Amelia", "Nikolai", "Zainab"]
        let remarks = [
            "Rowed out to the island at sunrise; nobody else there.", "The cream cake lives up to the legend.",
            "Busy in August, go early or late.", "The walk around the lake takes about two hours.",
            "Castle views are worth the climb.", "Rang the wishing bell three times, no regrets.",
            "Swimming area on the west shore is lovely.", "Vintgar gorge nearby is a must.",
            "Pletna boat ride was calm and beautiful.", "Parking is expensive, take the bus from Ljubljana.",
            "Ojstrica viewpoint at golden hour: unforgettable.", "Rainy day but still magical.",
        ]
        for position in 0..<25 {
            let review = Review(
                id: nil, destinationId: destinationID, author: authors[position % authors.count] + " " + String(UnicodeScalar(UInt8(65 + position % 26))) + ".",
                stars: 3 + (position * 7) % 3, text: remarks[position % remarks.count], position: position
            )
            try db.execute(
                "INSERT INTO review (destinationId, author, stars, text, position) VALUES (?, ?, ?, ?, ?)",
                [.integer(review.destinationId), .text(review.author), .integer(review.stars), .text(review.text), .integer(review.position)]
            )
        }
    }
}
